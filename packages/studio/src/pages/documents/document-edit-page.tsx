import { useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useSession } from '../../auth/session';
import { useDocumentPresence } from '../../live/presence';
import { documentTitle } from '../../queries/document-title';
import { ErrorMessage } from '../../ui/error-message';
import { usePageTitle } from '../../ui/page-title';
import { DocumentActions } from './document-actions';
import { DocumentConflicts, useDocumentConflicts } from './document-conflicts';
import { DraftStatus } from './draft-status';
import './documents.css';
import { FieldInput } from './field-input';
import { LeaveGuard } from './leave-guard';
import { LocaleNote } from './locale-note';
import { LocaleSwitcher } from './locale-switcher';
import { useContentLocale } from '../../queries/content-locale';
import { useDocument } from '../../queries/use-document-queries';
import { EditingTooNotice, FieldPresence, PresenceBar } from './presence-bar';
import { PreviewPane } from './preview-pane';
import { RevisionHistory } from './revision-history';
import { DocumentSchedules } from '../schedules/document-schedules';
import { formTabs, isHidden, isReadOnly, tabErrors, unshownErrors } from './form/field-layout';
import { FormTabs } from './form/form-tabs';
import { allows, fieldsOf, useSchema, type Field } from './schema';
import { StatusBadge } from './status-badge';
import { useAutosave } from './use-autosave';
import { NEW, useDocumentForm } from './use-document-form';

/**
 * One document: the form generated from its schema (`GET /config/schemas`), saved with
 * `If-Match` so that another writer's change is never overwritten unseen (docs/api.md,
 * "Documents"): a 412 opens a dialog to reload theirs or overwrite it. Ctrl/Cmd+S saves;
 * leaving with unsaved changes asks first. A published document is edited as its pending draft,
 * saved by itself a second after each change (docs/drafts.md), with the site's preview beside
 * the form when the schema has a preview URL (docs/preview.md).
 */
export default function DocumentEditPage() {
  const { type = '', id = NEW } = useParams();
  const navigate = useNavigate();
  const session = useSession();
  const { schema, error: schemaError } = useSchema(type);
  const fields = fieldsOf(schema);
  const form = useDocumentForm(type, id, fields, schema?.name);
  const conflicts = useDocumentConflicts(form, id);
  const { doc, isNew, errors, dirty } = form;
  // In a content locale other than the default, the default's values are shown beside the fields.
  const locale = useContentLocale();
  const inDefault = useDocument(type, id, { enabled: !isNew && !!locale.code, defaultLocale: true }).data;

  const canWrite = allows(session, 'content:write', type);
  // A published document is edited as its pending draft, which write permission is enough for
  // (docs/drafts.md); publishing it is a separate action.
  const editable = canWrite;
  const [previewing, setPreviewing] = useState(false);
  const previewable = !isNew && !!schema?.preview?.url;
  useAutosave(form, conflicts.save, !!conflicts.refused);
  // Who else has it open, the field they are on, and a soft word when both edit (docs/studio.md, "Presence").
  const presence = useDocumentPresence(type, id === NEW ? undefined : id, session.user?.id);
  const [editingTooDismissed, setEditingTooDismissed] = useState(false);
  const othersEditing = presence.others.filter((p) => p.editing);
  const title = isNew ? `New ${schema?.title ?? type}` : doc ? documentTitle(doc) : id;
  usePageTitle(title);

  // Ctrl+S / Cmd+S saves instead of the browser's "save page".
  const saveRef = useRef(conflicts.save);
  saveRef.current = conflicts.save;
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

  if (schemaError) return <ErrorMessage error={schemaError} />;
  if (!schema) return <p className="loading">Loading…</p>;
  if (!isNew && form.loadError) return <ErrorMessage error={form.loadError} />;
  if (!isNew && !doc) return <p className="loading">Loading…</p>;

  // Errors of fields not shown (hidden by a rule, or unknown to the schema) are listed above the form.
  const unplaced = unshownErrors(fields, form.values, errors);
  const tabs = formTabs(schema, fields);
  const markedTabs = tabs.filter((t) => tabErrors(t, form.values, errors) > 0).map((t) => t.title);
  // The fields the schema's rules show, read-only where a rule says so (docs/studio.md, "Form layout").
  const renderFields = (list: Field[]) =>
    list
      .filter((f) => !isHidden(f, form.values))
      .map((f) => (
        <div
          key={f.name}
          data-field={f.name}
          className={
            [f.localized && locale.code ? 'field-localized' : '', presence.others.some((p) => p.field === f.name) ? 'field-watched' : '']
              .filter(Boolean)
              .join(' ') || undefined
          }
        >
          <FieldPresence people={presence.others.filter((p) => p.field === f.name)} />
          <FieldInput
            field={f}
            value={form.values[f.name]}
            path={f.name}
            errors={errors}
            doc={form.values}
            disabled={!editable || isReadOnly(f, form.values)}
            onChange={(v) => {
              form.setField(f.name, v);
              presence.typed();
            }}
          />
          <LocaleNote field={f} locale={locale} served={doc} inDefault={inDefault} own={form.values[f.name]} />
        </div>
      ));

  return (
    <>
      <div className="doc-header">
        <h1>{title}</h1>
        <div className="row">
          {doc && <StatusBadge status={doc._status} />}
          {doc && (
            <span className="muted">
              {doc._version === 'draft' ? 'draft ' : ''}revision {String(doc._rev)}
            </span>
          )}
          {form.drafting ? <DraftStatus form={form} /> : dirty && <span role="status">Unsaved changes</span>}
          {!isNew && <LocaleSwitcher />}
          <PresenceBar others={presence.others} />
          {previewable && (
            <button type="button" aria-pressed={previewing} onClick={() => setPreviewing(!previewing)}>
              Preview page
            </button>
          )}
        </div>
      </div>
      {!canWrite && <p className="muted">You can read this document; editing needs the content:write permission.</p>}
      {Object.keys(errors).length > 0 && (
        <div role="alert" className="error">
          <p>Some fields need attention.</p>
          {markedTabs.length > 0 && <p>See the marked tabs: {markedTabs.join(', ')}.</p>}
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
      {form.failure !== undefined && Object.keys(errors).length === 0 && <ErrorMessage error={form.failure} />}
      <DocumentConflicts
        form={form}
        conflicts={conflicts} // Unawaited: the router handles a failed navigation itself.
        onLeave={() => void navigate(`/documents/${type}`)}
      />
      {editable && presence.engaged && !editingTooDismissed && (
        <EditingTooNotice editors={othersEditing} onDismiss={() => setEditingTooDismissed(true)} />
      )}
      {form.notice && (
        <p role="status" className="muted">
          {form.notice}
        </p>
      )}
      <div className={previewing && doc ? 'doc-edit with-preview' : 'doc-edit'}>
        <form
          className="doc-form"
          noValidate
          aria-label={`Edit ${title}`}
          onSubmit={(e) => {
            e.preventDefault();
            void conflicts.save();
          }}
          onFocus={(e) => presence.focus(e.target.closest('[data-field]')?.getAttribute('data-field') ?? null)}
          onBlur={(e) => {
            if (!(e.relatedTarget instanceof Node && e.currentTarget.contains(e.relatedTarget))) presence.focus(null);
          }}
        >
          {tabs.length > 0 ? (
            <FormTabs tabs={tabs} values={form.values} errors={errors}>
              {(tab) => renderFields(tab.fields)}
            </FormTabs>
          ) : (
            renderFields(fields)
          )}
          {editable && !form.drafting && (
            <div className="row doc-save">
              <button type="submit" className="primary" disabled={form.saving}>
                {form.saving ? 'Saving…' : isNew ? 'Create' : 'Save'}
              </button>
              <span className="muted">Ctrl+S / ⌘S</span>
            </div>
          )}
        </form>
        {previewing && doc && <PreviewPane type={type} doc={doc} title={title} />}
        {/* A new document has no status or history yet: no panel at all, not an empty one. */}
        {doc && (
          <aside className="doc-side" aria-label="Document">
            <DocumentActions
              type={type}
              typeTitle={schema.title}
              doc={doc}
              fields={fields}
              session={session}
              busy={form.saving}
              onStatus={(s) => void conflicts.save(s)}
              onDeleting={form.setDeleting}
              onDeleted={() => {
                form.discard();
                // Unawaited: the router handles a failed navigation itself.
                void navigate(`/documents/${type}`, { replace: true });
              }}
              dirty={dirty}
              flush={async () => !form.unsaved || (await conflicts.save()) === 'saved'}
              onWriting={form.setWriting}
            />
            <DocumentSchedules type={type} id={String(doc._id)} session={session} />
            <RevisionHistory
              type={type}
              doc={doc}
              fields={fields}
              canRestore={editable}
              dirty={dirty}
              onRestore={form.restore}
              withDrafts={form.drafting}
            />
          </aside>
        )}
      </div>
      <LeaveGuard dirty={dirty} />
    </>
  );
}
