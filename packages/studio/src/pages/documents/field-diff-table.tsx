import type { ReactNode } from 'react';
import { fieldLabel, type Doc, type Field } from './schema';
import { valueText } from './value-text';

/**
 * Two versions of a document side by side, one row per changed field (the older value marked
 * removed, the newer added): the revision history against the current version, the publish
 * dialog's draft against what is live.
 */
export function FieldDiffTable(props: {
  caption: ReactNode;
  captionHidden?: boolean;
  changed: Field[];
  before: Doc;
  after: Doc;
  beforeLabel: string;
  afterLabel: string;
}) {
  const { changed, before, after } = props;
  return (
    <table className="diff-table">
      <caption className={props.captionHidden ? 'visually-hidden' : undefined}>{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">{props.beforeLabel}</th>
          <th scope="col">{props.afterLabel}</th>
        </tr>
      </thead>
      <tbody>
        {changed.map((f) => (
          <tr key={f.name}>
            <th scope="row">{fieldLabel(f)}</th>
            <td className="diff-removed">{valueText(f, before[f.name])}</td>
            <td className="diff-added">{valueText(f, after[f.name])}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
