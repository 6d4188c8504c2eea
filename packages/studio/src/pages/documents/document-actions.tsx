import { VellumApiError } from '@vellum/client';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Session } from '../../auth/session';
import { documentTitle } from '../../queries/document-title';
import { useDocument } from '../../queries/use-document-queries';
import { useDeleteDocument } from '../../queries/use-document-writes';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ErrorMessage } from '../../ui/error-message';
import { DraftActions, WhoMayPublish } from './draft-actions';
import { allows, type Doc, type Field } from './schema';

interface Referrer {
  field: string;
  type?: string;
  id?: string;
  message: string;
}

/** The referring documents a 409 on delete lists, or nothing for any other error. */
function referrersOf(err: unknown): Referrer[] | undefined {
  if (!(err instanceof VellumApiError && err.code === 'CONFLICT' && err.details?.length)) return undefined;
  return err.details.map((d) => {
    const m = /referenced by (\S+) (\S+)/.exec(d.message);
    return { field: d.field, type: m?.[1], id: m?.[2], message: d.message };
  });
}

/**
 * Publish, unpublish, archive and delete, as the user's permissions allow (docs/api.md,
 * "Permissions"): an action the user may not take is left out or disabled, with the reason.
 * A status change saves the form with it (one `PUT` with `If-Match`); a published document's
 * own actions (publish its changes, discard them, unpublish) are `DraftActions`.
 */
export function DocumentActions(props: {
  type: string;
  typeTitle: string;
  doc: Doc;
  fields: Field[];
  session: Session;
  busy: boolean;
  dirty: boolean;
  onStatus(status: 'draft' | 'published' | 'archived'): void;
  onDeleted(): void;
  /** The delete request goes out (true), or failed (false): its own change event must not read as someone else's. */
  onDeleting?(deleting: boolean): void;
  /** Saves what is unsaved in the form first (before publishing a draft); false when it did not go through. */
  flush(): Promise<boolean>;
  /** A publish, discard or unpublish goes out (true) or has answered (false). */
  onWriting(writing: boolean): void;
}) {
  const { type, doc, session, busy, onStatus } = props;
  const status = String(doc._status);
  const canWrite = allows(session, 'content:write', type);
  const canPublish = allows(session, 'content:publish', type);
  const canDelete = allows(session, 'content:delete', type);
  const published = status === 'published';
  const [confirming, setConfirming] = useState(false);
  const [referrers, setReferrers] = useState<Referrer[]>();
  // A 409 lists the referring documents instead of failing: "Delete anyway" then forces it.
  const deletion = useDeleteDocument(type, String(doc._id));
  const remove = (force: boolean) => {
    props.onDeleting?.(true);
    deletion.mutate(force, {
      onSuccess: () => {
        setConfirming(false);
        props.onDeleted();
      },
      onError: (err) => {
        props.onDeleting?.(false);
        const found = referrersOf(err);
        if (found) setReferrers(found);
      },
    });
  };

  const reasons: string[] = [];
  if (!canPublish) reasons.push('Publishing and unpublishing need the content:publish permission.');
  if (!canDelete) reasons.push('Deleting needs the content:delete permission.');

  return (
    <section className="stack" aria-labelledby="doc-actions-title">
      <h2 id="doc-actions-title">Status</h2>
      <div className="row">
        {canPublish && !published && (
          <button type="button" className="primary" disabled={busy} onClick={() => onStatus('published')}>
            {props.dirty ? 'Save and publish' : 'Publish'}
          </button>
        )}
        {published && (
          <DraftActions
            type={type}
            doc={doc}
            fields={props.fields}
            canWrite={canWrite}
            canPublish={canPublish}
            busy={busy}
            dirty={props.dirty}
            flush={props.flush}
            onWriting={props.onWriting}
          />
        )}
        {canWrite && status !== 'archived' && (
          <button
            type="button"
            disabled={busy || (published && !canPublish)}
            title={published && !canPublish ? 'Archiving a published document unpublishes it: that needs content:publish.' : undefined}
            onClick={() => onStatus('archived')}
          >
            Archive
          </button>
        )}
        {canWrite && status === 'archived' && (
          <button type="button" disabled={busy} onClick={() => onStatus('draft')}>
            Move to draft
          </button>
        )}
        {canDelete && (
          <button
            type="button"
            className="danger"
            disabled={busy}
            onClick={() => {
              setReferrers(undefined);
              deletion.reset();
              setConfirming(true);
            }}
          >
            Delete
          </button>
        )}
      </div>
      {canWrite && published && !canPublish && (
        <>
          <WhoMayPublish typeTitle={props.typeTitle} />
          <p className="field-help">Archiving a published document unpublishes it: that needs content:publish.</p>
        </>
      )}
      {reasons.map((r) => (
        <p key={r} className="field-help">
          {r}
        </p>
      ))}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={referrers ? 'This document is referenced' : 'Delete this document?'}
        actions={
          <>
            <button type="button" onClick={() => setConfirming(false)}>
              Cancel
            </button>
            <button type="button" className="danger" disabled={deletion.isPending} onClick={() => remove(!!referrers)}>
              {referrers ? 'Delete anyway' : 'Delete'}
            </button>
          </>
        }
      >
        {referrers ? (
          <>
            <p>Other documents point at it. Deleted anyway, they keep an id that leads nowhere.</p>
            <ul aria-label="Referenced by">
              {referrers.map((r, i) => (
                <li key={i}>
                  {r.type && r.id ? <ReferrerLink type={r.type} id={r.id} onClick={() => setConfirming(false)} /> : r.message}{' '}
                  <span className="muted">({r.field})</span>
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p>It is removed with its history. This cannot be undone.</p>
        )}
        <ErrorMessage error={referrersOf(deletion.error) ? null : deletion.error} />
      </ConfirmDialog>
    </section>
  );
}

/** A referring document by its title (read when the 409 lists it), else by type and id. */
function ReferrerLink({ type, id, onClick }: { type: string; id: string; onClick(): void }) {
  const doc = useDocument(type, id, { retry: false });
  return (
    <Link to={`/documents/${type}/${id}`} onClick={onClick}>
      {doc.data ? `${documentTitle(doc.data)} (${type})` : `${type} ${id}`}
    </Link>
  );
}
