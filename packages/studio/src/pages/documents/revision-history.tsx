import { useState } from 'react';
import { useRevisions } from '../../queries/use-document-queries';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ErrorMessage } from '../../ui/error-message';
import { when } from '../../ui/when';
import { ownValues, stable } from './document-values';
import { FieldDiffTable } from './field-diff-table';
import type { Doc, Field } from './schema';
import { StatusBadge } from './status-badge';

type Kind = 'main' | 'draft';

/**
 * The stored versions of the document, newest first (`GET …/revisions`): one chosen is compared
 * field by field with the current one, and can be restored (a new revision with its fields; the
 * status is kept, docs/api.md "Documents") after a confirmation. The restore itself is the
 * page's (`onRestore`): it is the page's own write, which its live watch must not read as
 * someone else's (docs/studio.md, "Live updates"). A published document's history holds its
 * published versions and the saves of its drafts (`kind`, docs/drafts.md); restoring either
 * writes its pending draft, as the server does.
 */
export function RevisionHistory(props: {
  type: string;
  doc: Doc;
  fields: Field[];
  canRestore: boolean;
  /** The form holds unsaved changes (a restore replaces them). */
  dirty: boolean;
  onRestore(rev: number, kind: Kind): Promise<void>;
  /** List the saves of its drafts too (a published document). */
  withDrafts: boolean;
}) {
  const { type, doc, fields } = props;
  const id = String(doc._id);
  const [chosen, setChosen] = useState<string>();
  const revisions = useRevisions(type, id, `${String(doc._version)}:${String(doc._rev)}`, props.withDrafts);
  const currentKind: Kind = doc._version === 'draft' ? 'draft' : 'main';
  const keyOf = (r: { kind: Kind; _rev: number }) => `${r.kind}:${r._rev}`;
  const revision = revisions.data?.find((r) => keyOf(r) === chosen);
  const isCurrent = (r: { kind: Kind; _rev: number }) => r.kind === currentKind && r._rev === doc._rev;
  const name = (r: { kind: Kind; _rev: number }) => `${r.kind === 'draft' ? 'Draft save' : 'Revision'} ${r._rev}`;
  const before = ownValues(revision?.data as Doc | undefined, fields);
  const now = ownValues(doc, fields);
  const changed = fields.filter((f) => stable(before[f.name]) !== stable(now[f.name]));

  return (
    <section className="stack" aria-labelledby="doc-history-title">
      <h2 id="doc-history-title">History</h2>
      <ErrorMessage error={revisions.error} />
      <ul className="revision-list">
        {revisions.data?.map((r) => (
          <li key={keyOf(r)}>
            <button type="button" aria-pressed={chosen === keyOf(r)} onClick={() => setChosen(chosen === keyOf(r) ? undefined : keyOf(r))}>
              {name(r)}
            </button>{' '}
            {r.kind === 'draft' ? <span className="badge">draft save</span> : <StatusBadge status={r._status} />}{' '}
            <span className="muted">{when(r._updatedAt)}</span>
            {isCurrent(r) && <span className="muted"> (current)</span>}
          </li>
        ))}
      </ul>
      {revision && (
        <div className="stack" role="region" aria-label={`Changes since ${name(revision).toLowerCase()}`}>
          {changed.length === 0 ? (
            <p className="muted">{name(revision)} has the same fields as the current one.</p>
          ) : (
            <FieldDiffTable
              caption={`Fields that differ between ${name(revision).toLowerCase()} and the current one`}
              captionHidden
              changed={changed}
              before={before}
              after={now}
              beforeLabel={name(revision)}
              afterLabel="Current"
            />
          )}
          {props.canRestore && !isCurrent(revision) && (
            <ConfirmDialog
              trigger={<button type="button">Restore {name(revision).toLowerCase()}</button>}
              title={`Restore ${name(revision).toLowerCase()}?`}
              confirmLabel="Restore"
              onConfirm={async () => {
                await props.onRestore(revision._rev, revision.kind);
                setChosen(undefined);
              }}
            >
              <p>
                {doc._status === 'published'
                  ? `Its fields are written into the draft of this published document; the live version changes when the draft is published.`
                  : `The document gets the fields of revision ${revision._rev} back as a new revision; its status stays ${String(doc._status)}.`}
                {props.dirty && ' The unsaved changes in the form are lost.'}
              </p>
            </ConfirmDialog>
          )}
        </div>
      )}
    </section>
  );
}
