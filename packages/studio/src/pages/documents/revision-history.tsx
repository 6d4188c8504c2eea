import { useState } from 'react';
import { useRevisions } from '../../queries/use-document-queries';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ErrorMessage } from '../../ui/error-message';
import { when } from '../../ui/when';
import { ownValues, stable } from './document-values';
import { fieldLabel, type Doc, type Field } from './schema';
import { StatusBadge } from './status-badge';
import { valueText } from './value-text';

/**
 * The stored versions of the document, newest first (`GET …/revisions`): one chosen is compared
 * field by field with the current one, and can be restored (a new revision with its fields; the
 * status is kept, docs/api.md "Documents") after a confirmation. The restore itself is the
 * page's (`onRestore`): it is the page's own write, which its live watch must not read as
 * someone else's (docs/studio.md, "Live updates").
 */
export function RevisionHistory(props: {
  type: string;
  doc: Doc;
  fields: Field[];
  canRestore: boolean;
  /** The form holds unsaved changes (a restore replaces them). */
  dirty: boolean;
  onRestore(rev: number): Promise<void>;
}) {
  const { type, doc, fields } = props;
  const id = String(doc._id);
  const [chosen, setChosen] = useState<number>();
  const revisions = useRevisions(type, id, doc._rev);
  const revision = revisions.data?.data.find((r) => r._rev === chosen);
  const before = ownValues(revision?.data as Doc | undefined, fields);
  const now = ownValues(doc, fields);
  const changed = fields.filter((f) => stable(before[f.name]) !== stable(now[f.name]));

  return (
    <section className="stack" aria-labelledby="doc-history-title">
      <h2 id="doc-history-title">History</h2>
      <ErrorMessage error={revisions.error} />
      <ul className="revision-list">
        {revisions.data?.data.map((r) => (
          <li key={r._rev}>
            <button type="button" aria-pressed={chosen === r._rev} onClick={() => setChosen(chosen === r._rev ? undefined : r._rev)}>
              Revision {r._rev}
            </button>{' '}
            <StatusBadge status={r._status} /> <span className="muted">{when(r._updatedAt)}</span>
            {r._rev === doc._rev && <span className="muted"> (current)</span>}
          </li>
        ))}
      </ul>
      {revision && (
        <div className="stack" role="region" aria-label={`Changes since revision ${revision._rev}`}>
          {changed.length === 0 ? (
            <p className="muted">Revision {revision._rev} has the same fields as the current one.</p>
          ) : (
            <table className="diff-table">
              <caption className="visually-hidden">Fields that differ between revision {revision._rev} and the current one</caption>
              <thead>
                <tr>
                  <th scope="col">Field</th>
                  <th scope="col">Revision {revision._rev}</th>
                  <th scope="col">Current</th>
                </tr>
              </thead>
              <tbody>
                {changed.map((f) => (
                  <tr key={f.name}>
                    <th scope="row">{fieldLabel(f)}</th>
                    <td className="diff-removed">{valueText(f, before[f.name])}</td>
                    <td className="diff-added">{valueText(f, now[f.name])}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {props.canRestore && revision._rev !== doc._rev && (
            <ConfirmDialog
              trigger={<button type="button">Restore revision {revision._rev}</button>}
              title={`Restore revision ${revision._rev}?`}
              confirmLabel="Restore"
              onConfirm={async () => {
                await props.onRestore(revision._rev);
                setChosen(undefined);
              }}
            >
              <p>
                The document gets the fields of revision {revision._rev} back as a new revision; its status stays {String(doc._status)}.
                {props.dirty && ' The unsaved changes in the form are lost.'}
              </p>
            </ConfirmDialog>
          )}
        </div>
      )}
    </section>
  );
}
