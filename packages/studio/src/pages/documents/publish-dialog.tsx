import { VellumApiError } from '@vellum/client';
import { useState } from 'react';
import { Link } from 'react-router';
import { documentTitle } from '../../queries/document-title';
import { useDocument, useLiveDocument } from '../../queries/use-document-queries';
import { usePublishDraft, usePublishPlan } from '../../queries/use-draft-writes';
import { DialogFrame } from '../../ui/dialog-frame';
import { ErrorMessage } from '../../ui/error-message';
import { ownValues, stable } from './document-values';
import { FieldDiffTable } from './field-diff-table';
import type { Doc, Field } from './schema';

/** A 409 on publish for a draft made from an older live version (docs/drafts.md, "Stale drafts"). */
const isStale = (err: unknown) =>
  err instanceof VellumApiError && err.code === 'CONFLICT' && !!err.details?.some((d) => d.field === '_rev');

/**
 * "Publish changes": the pending draft against what is live, field by field (changed fields
 * only), the unpublished documents it references (`publishPlan`, a dry run) with "Publish them
 * too" (`withReferences`), and, for a draft made before someone changed the live version,
 * "Publish anyway" (`force`).
 */
export function PublishDialog(props: {
  type: string;
  doc: Doc;
  fields: Field[];
  open: boolean;
  onOpenChange(open: boolean): void;
  /** Runs the publish as the page's own write (its event is not someone else's). */
  write<T>(run: () => Promise<T>): Promise<T>;
}) {
  const { type, doc, fields, open } = props;
  const id = String(doc._id);
  const live = useLiveDocument(type, id, open);
  const plan = usePublishPlan(type, id, open);
  const publish = usePublishDraft(type, id);
  const [withReferences, setWithReferences] = useState(false);
  const before = ownValues(live.data, fields);
  const after = ownValues(doc, fields);
  const changed = fields.filter((f) => stable(before[f.name]) !== stable(after[f.name]));
  const blocked = plan.data?.blockedBy ?? [];
  const stale = isStale(publish.error);
  const run = (force: boolean) =>
    props
      .write(() => publish.mutateAsync({ withReferences: withReferences || undefined, force: force || undefined }))
      .then(() => props.onOpenChange(false))
      // Shown in the dialog from the mutation's own error.
      .catch(() => undefined);

  return (
    <DialogFrame
      wide
      open={open}
      onOpenChange={(o) => {
        if (o) publish.reset();
        props.onOpenChange(o);
      }}
      title="Publish changes?"
      description={<p>The live version is replaced with these changes.</p>}
    >
      <ErrorMessage error={live.error ?? plan.error} />
      {live.data &&
        (changed.length === 0 ? (
          <p className="muted">The draft has the same fields as the live version.</p>
        ) : (
          <FieldDiffTable caption="Changed fields" changed={changed} before={before} after={after} beforeLabel="Live" afterLabel="Draft" />
        ))}
      {blocked.length > 0 && (
        <div className="stack">
          <p>It references documents that are not published; a published document never points at one that is not.</p>
          <ul aria-label="Unpublished references">
            {blocked.map((r) => (
              <li key={`${r.type}/${r.id}/${r.field}`}>
                <ReferenceLink type={r.type} id={r.id} /> <span className="muted">({r.field})</span>
              </li>
            ))}
          </ul>
          <label className="row">
            <input type="checkbox" checked={withReferences} onChange={(e) => setWithReferences(e.target.checked)} />
            Publish them too
          </label>
        </div>
      )}
      {stale ? (
        <p role="alert" className="error">
          The live version was changed after this draft was made. Publishing anyway replaces that change with the draft.
        </p>
      ) : (
        <ErrorMessage error={publish.error} />
      )}
      <div className="row dialog-actions">
        <button type="button" onClick={() => props.onOpenChange(false)}>
          Cancel
        </button>
        <button
          type="button"
          className="primary"
          disabled={publish.isPending || plan.isPending || (blocked.length > 0 && !withReferences)}
          onClick={() => void run(stale)}
        >
          {stale ? 'Publish anyway' : 'Publish'}
        </button>
      </div>
    </DialogFrame>
  );
}

/** A referenced document by its title, else by type and id. */
function ReferenceLink({ type, id }: { type: string; id: string }) {
  const doc = useDocument(type, id, { retry: false });
  return (
    <Link to={`/documents/${type}/${id}`} target="_blank">
      {doc.data ? `${documentTitle(doc.data)} (${type})` : `${type} ${id}`}
    </Link>
  );
}
