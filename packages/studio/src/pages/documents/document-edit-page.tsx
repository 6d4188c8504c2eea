import { VellumApiError } from '@vellum/client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useBlocker, useNavigate, useParams } from 'react-router';
import { client } from '../../api/client';
import { useSession } from '../../auth/session';
import { documentTitle } from '../../shell/global-search';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ErrorMessage } from '../../ui/error-message';
import { usePageTitle } from '../../ui/page-title';
import { DocumentActions } from './document-actions';
import { cleanValues, defaultValues, ownValues, sameValues } from './document-values';
import './documents.css';
import { FieldInput, type FieldErrors } from './field-input';
import { RevisionHistory } from './revision-history';
import { allows, fieldsOf, useSchema, type Doc } from './schema';
import { StatusBadge } from './status-badge';
import { useDocumentWatch } from '../../live/use-document-watch';
import { OutsideChangeNotice } from './outside-change-notice';

/** The path `new` opens an empty form; saving it creates the document. */
export const NEW = 'new';

/**
 * One document: the form generated from its schema (`GET /config/schemas`), saved with
 * `If-Match` so that another writer's change is never overwritten unseen (docs/api.md,
 * "Documents"): a 412 opens a dialog to reload theirs or overwrite it. Ctrl/Cmd+S saves;
 * leaving with unsaved changes asks first.
 */
export default function DocumentEditPage() {
  const { type = '', id = NEW } = useParams();
  const isNew = id === NEW;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = useSession();
  const { schema, error: schemaError } = useSchema(type);
  const fields = fieldsOf(schema);
  const api = client.collections(type);

  const loaded = useQuery({
    queryKey: ['documents', type, 'one', id],
    enabled: !isNew,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    queryFn: () => api.get(id),
  });
  const doc = loaded.data as Doc | undefined;
  const [values, setValues] = useState<Doc>({});
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<unknown>();
  const [notice, setNotice] = useState<string>();
  const [saving, setSaving] = useState(false);
  const [conflict, setConflict] = useState<{ status?: string } | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [restoring, setRestoring] = useState(false);

  // The form starts from the stored document each time it is (re)read, or from the defaults.
  // The schema is part of the key: a document read before its schema has no fields to fill yet.
  const baseline = isNew ? defaultValues(fields) : ownValues(doc, fields);
  const baselineKey = isNew ? `new:${schema?.name}` : `${schema?.name}:${String(doc?._id)}:${String(doc?._rev)}:${loaded.dataUpdatedAt}`;
  // Set while rendering, not in an effect: a newer version read (someone else's save, a restore)
  // never renders once with the old values against the new baseline, which would read as
  // unsaved changes and flash "while you were editing" (docs/studio.md, "Live updates").
  const [valuesKey, setValuesKey] = useState<string>();
  if (valuesKey !== baselineKey) {
    setValuesKey(baselineKey);
    setValues(baseline);
    setErrors({});
  }

  const unsaved = isNew ? fields.length > 0 && !sameValues(values, baseline) : !!doc && !sameValues(values, baseline);
  const dirty = unsaved && !saving;
  const canWrite = allows(session, 'content:write', type);
  const canPublish = allows(session, 'content:publish', type);
  const published = doc?._status === 'published';
  // Editing a published document changes public content: it needs the publish permission too (docs/api.md, "Permissions").
  const editable = canWrite && (!published || canPublish);
  const title = isNew ? `New ${schema?.title ?? type}` : doc ? documentTitle(doc) : id;

  // Someone else's change to this document (docs/studio.md, "Live updates"): with nothing unsaved
  // here the newer version is simply loaded; with unsaved changes the user decides.
  const watch = useDocumentWatch(isNew ? undefined : id, doc?._rev as number | undefined, saving || deleting || restoring);
  const outside = watch.change;
  // Never while this page writes: `dirty` is false then, but the values being written are still
  // unsaved, and an event can come between the save starting and the watch learning of it;
  // reloading then replaced the values in flight with theirs, and "Overwrite with mine" wrote
  // theirs back. Once the write has answered, a change newer than what it shows is loaded if
  // nothing is unsaved.
  const busy = saving || deleting || restoring;
  useEffect(() => {
    if (!outside || outside.deleted || unsaved || busy) return;
    if (typeof doc?._rev === 'number' && doc._rev >= outside.rev) return;
    void loaded.refetch();
    setNotice(`Someone else saved a newer version (revision ${outside.rev}); it is shown now.`);
  }, [outside?.rev, outside?.deleted, busy]);
  usePageTitle(title);

  /** Writes the form (and a status, when one is given), checked against the revision it was read at. */
  const write = useCallback(
    async (status?: string, opts: { overwrite?: boolean } = {}) => {
      setSaving(true);
      setFailure(undefined);
      setNotice(undefined);
      const body = { ...((cleanValues(values) as Doc | undefined) ?? {}), ...(status ? { _status: status } : {}) } as Doc;
      try {
        if (isNew) {
          const created = await api.create(body);
          queryClient.setQueryData(['documents', type, 'one', created._id], created);
          await queryClient.invalidateQueries({ queryKey: ['documents', type, 'list'] });
          setValues(ownValues(created, fields));
          // Unawaited: the router handles a failed navigation itself.
          void navigate(`/documents/${type}/${created._id}`, { replace: true });
          return;
        }
        const ifMatch = opts.overwrite ? (await api.get(id))._rev : (doc?._rev as number);
        const saved = await api.replace(id, body, { ifMatch });
        queryClient.setQueryData(['documents', type, 'one', id], saved);
        void queryClient.invalidateQueries({ queryKey: ['documents', type, 'list'] });
        void queryClient.invalidateQueries({ queryKey: ['documents', type, 'revisions', id] });
        setErrors({});
        setNotice(status ? `Saved and ${status}.` : 'Saved.');
      } catch (err) {
        if (err instanceof VellumApiError && err.code === 'PRECONDITION_FAILED') setConflict({ status });
        else if (err instanceof VellumApiError && err.code === 'VALIDATION_ERROR' && err.details?.length) {
          setErrors(Object.fromEntries(err.details.map((d) => [d.field, d.message])));
          setFailure(err);
        } else setFailure(err);
      } finally {
        setSaving(false);
      }
    },
    [values, isNew, api, id, doc, type, fields, navigate, queryClient],
  );

  /**
   * Restores a revision (a new revision with its fields). Like a save it is this page's own
   * write: the watch holds the events meanwhile, and the answer is shown at once, so its event
   * finds the page already at the revision it made.
   */
  const restore = async (rev: number) => {
    setRestoring(true);
    setNotice(undefined);
    try {
      const restored = await api.restore(id, rev);
      queryClient.setQueryData(['documents', type, 'one', id], restored);
      void queryClient.invalidateQueries({ queryKey: ['documents', type, 'list'] });
      void queryClient.invalidateQueries({ queryKey: ['documents', type, 'revisions', id] });
      setNotice(`Revision ${rev} restored.`);
    } finally {
      setRestoring(false);
    }
  };

  // Ctrl+S / Cmd+S saves instead of the browser's "save page".
  const saveRef = useRef(write);
  saveRef.current = write;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
        e.preventDefault();
        if (editable) void saveRef.current();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [editable]);

  // Unsaved changes: leaving inside the studio asks (a dialog); closing or reloading the tab asks the browser.
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (!dirty) return;
    const onUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', onUnload);
    return () => window.removeEventListener('beforeunload', onUnload);
  }, [dirty]);

  if (schemaError) return <ErrorMessage error={schemaError} />;
  if (!schema) return <p className="loading">Loading…</p>;
  if (!isNew && loaded.error) return <ErrorMessage error={loaded.error} />;
  if (!isNew && !doc) return <p className="loading">Loading…</p>;

  const unplaced = Object.entries(errors).filter(([path]) => !fields.some((f) => path === f.name || path.startsWith(`${f.name}.`)));

  return (
    <>
      <div className="doc-header">
        <h1>{title}</h1>
        <div className="row">
          {doc && <StatusBadge status={doc._status} />}
          {doc && <span className="muted">revision {String(doc._rev)}</span>}
          {dirty && <span role="status">Unsaved changes</span>}
        </div>
      </div>
      {!canWrite && <p className="muted">You can read this document; editing needs the content:write permission.</p>}
      {canWrite && !editable && <p className="muted">This document is published: changing it needs the content:publish permission.</p>}
      {Object.keys(errors).length > 0 && (
        <div role="alert" className="error">
          <p>Some fields need attention.</p>
          {unplaced.length > 0 && (
            <ul>
              {unplaced.map(([path, message]) => (
                <li key={path}>
                  {path}: {message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {failure !== undefined && Object.keys(errors).length === 0 && <ErrorMessage error={failure} />}
      {outside && (outside.deleted || dirty) && (
        <OutsideChangeNotice
          change={outside}
          onReload={() => {
            watch.dismiss();
            void loaded.refetch();
          }}
          onKeep={watch.dismiss}
          // Unawaited: the router handles a failed navigation itself.
          onLeave={() => void navigate(`/documents/${type}`)}
        />
      )}
      {notice && (
        <p role="status" className="muted">
          {notice}
        </p>
      )}
      <div className="doc-edit">
        <form
          className="doc-form"
          noValidate
          aria-label={`Edit ${title}`}
          onSubmit={(e) => {
            e.preventDefault();
            void write();
          }}
        >
          {fields.map((f) => (
            <FieldInput
              key={f.name}
              field={f}
              value={values[f.name]}
              path={f.name}
              errors={errors}
              doc={values}
              disabled={!editable}
              onChange={(v) =>
                setValues((prev) => {
                  const next = { ...prev, [f.name]: v };
                  if (v === undefined) delete next[f.name];
                  return next;
                })
              }
            />
          ))}
          {editable && (
            <div className="row doc-save">
              <button type="submit" className="primary" disabled={saving}>
                {saving ? 'Saving…' : isNew ? 'Create' : 'Save'}
              </button>
              <span className="muted">Ctrl+S / ⌘S</span>
            </div>
          )}
        </form>
        {/* A new document has no status or history yet: no panel at all, not an empty one. */}
        {doc && (
          <aside className="doc-side" aria-label="Document">
            <DocumentActions
              type={type}
              doc={doc}
              session={session}
              busy={saving}
              onStatus={(s) => void write(s)}
              onDeleting={() => setDeleting(true)}
              onDeleted={() => {
                setValues(baseline);
                void queryClient.invalidateQueries({ queryKey: ['documents', type, 'list'] });
                // Unawaited: the router handles a failed navigation itself.
                void navigate(`/documents/${type}`, { replace: true });
              }}
              dirty={dirty}
            />
            <RevisionHistory type={type} doc={doc} fields={fields} canRestore={editable} dirty={dirty} onRestore={restore} />
          </aside>
        )}
      </div>
      <ConfirmDialog
        open={!!conflict}
        onOpenChange={(open) => !open && setConflict(null)}
        title="Changed by someone else"
        actions={
          <>
            <button
              type="button"
              onClick={() => {
                setConflict(null);
                void loaded.refetch();
              }}
            >
              Reload their version
            </button>
            <button
              type="button"
              className="primary"
              onClick={() => {
                const status = conflict?.status;
                setConflict(null);
                void write(status, { overwrite: true });
              }}
            >
              Overwrite with mine
            </button>
          </>
        }
      >
        <p>
          This document was saved by someone else after you opened it (you have revision {String(doc?._rev)}). Reload their version and lose
          your changes, or overwrite theirs with yours.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={blocker.state === 'blocked'}
        onOpenChange={(open) => !open && blocker.reset?.()}
        title="Leave without saving?"
        actions={
          <>
            <button type="button" onClick={() => blocker.reset?.()}>
              Stay
            </button>
            <button type="button" className="primary" onClick={() => blocker.proceed?.()}>
              Leave and lose changes
            </button>
          </>
        }
      >
        <p>This document has changes that are not saved.</p>
      </ConfirmDialog>
    </>
  );
}
