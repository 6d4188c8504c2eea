import { useState } from 'react';
import { useDiscardDraft, useUnpublishDocument } from '../../queries/use-draft-writes';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { PublishDialog } from './publish-dialog';
import type { Doc, Field } from './schema';

/**
 * The actions of a published document, edited as its pending draft (docs/drafts.md): "Publish
 * changes" (a dialog with the diff against what is live), "Discard changes" and "Unpublish",
 * each asked first. A writer, who may save the draft but not publish it, is told who may.
 */
export function DraftActions(props: {
  type: string;
  doc: Doc;
  fields: Field[];
  canWrite: boolean;
  canPublish: boolean;
  busy: boolean;
  /** The form holds changes not saved yet (publishing saves them first). */
  dirty: boolean;
  /** Saves what is unsaved in the form first; false when that save did not go through. */
  flush(): Promise<boolean>;
  /** A write goes out (true) or has answered (false): its events are the page's own, not someone else's. */
  onWriting(writing: boolean): void;
}) {
  const { type, doc, canWrite, canPublish, busy } = props;
  const id = String(doc._id);
  const pending = doc._version === 'draft';
  const [publishing, setPublishing] = useState(false);
  const discard = useDiscardDraft(type, id);
  const unpublish = useUnpublishDocument(type, id);
  const write = async <T,>(run: () => Promise<T>): Promise<T> => {
    props.onWriting(true);
    try {
      return await run();
    } finally {
      props.onWriting(false);
    }
  };

  return (
    <>
      {canPublish && (
        <button
          type="button"
          className="primary"
          disabled={busy || !(pending || props.dirty)}
          title={pending || props.dirty ? undefined : 'Nothing to publish: there are no changes to the live version.'}
          onClick={() => void props.flush().then((ok) => ok && setPublishing(true))}
        >
          Publish changes
        </button>
      )}
      {canWrite && pending && (
        <ConfirmDialog
          trigger={
            <button type="button" disabled={busy}>
              Discard changes
            </button>
          }
          title="Discard changes?"
          confirmLabel="Discard changes"
          onConfirm={() => write(() => discard.mutateAsync())}
        >
          <p>The draft is dropped and the form shows the live version again. The draft's saves stay in the history.</p>
        </ConfirmDialog>
      )}
      {canPublish && (
        <ConfirmDialog
          trigger={
            <button type="button" disabled={busy}>
              Unpublish
            </button>
          }
          title="Unpublish this document?"
          confirmLabel="Unpublish"
          onConfirm={() => write(() => unpublish.mutateAsync())}
        >
          <p>
            It leaves the live site and becomes a draft
            {pending ? ', holding the unpublished changes' : ''}.
          </p>
        </ConfirmDialog>
      )}
      {canPublish && (
        <PublishDialog type={type} doc={doc} fields={props.fields} open={publishing} onOpenChange={setPublishing} write={write} />
      )}
    </>
  );
}

/** Said to a writer on a published document: the draft is saved, publishing is someone else's. */
export function WhoMayPublish({ typeTitle }: { typeTitle: string }) {
  return (
    <p className="field-help">
      Your changes are saved as a draft; the live version stays as it is. Ask someone with publish permission on {typeTitle} to publish
      them.
    </p>
  );
}
