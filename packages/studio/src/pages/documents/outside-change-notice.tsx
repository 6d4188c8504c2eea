import type { OutsideChange } from '../../live/use-document-watch';

/**
 * Said when someone else changed the document open here while it has unsaved changes, or
 * deleted it: their version can be loaded (losing the changes here), or the changes kept (saving
 * them then asks, as for any conflict). Announced politely: it must not interrupt typing.
 */
export function OutsideChangeNotice(props: { change: OutsideChange; onReload(): void; onKeep(): void; onLeave(): void }) {
  const { change } = props;
  if (change.deleted) {
    return (
      <div role="status" className="outside-change">
        <p>Someone else deleted this document. Saving here will not bring it back.</p>
        <div className="row">
          <button type="button" onClick={props.onLeave}>
            Back to the list
          </button>
        </div>
      </div>
    );
  }
  return (
    <div role="status" className="outside-change">
      <p>
        {change.discarded
          ? 'Someone else discarded the draft of this document while you were editing it.'
          : `Someone else saved this document (${change.draft ? 'draft ' : ''}revision ${change.rev}) while you were editing it.`}
      </p>
      <div className="row">
        <button type="button" onClick={props.onReload}>
          Load their version
        </button>
        <button type="button" onClick={props.onKeep}>
          Keep editing mine
        </button>
      </div>
    </div>
  );
}
