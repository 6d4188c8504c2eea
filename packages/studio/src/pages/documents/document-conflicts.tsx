import { useEffect, useState } from 'react';
import { showsChange, useDocumentWatch } from '../../live/use-document-watch';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { OutsideChangeNotice } from './outside-change-notice';
import type { DocumentForm, SaveOutcome } from './use-document-form';

/**
 * Someone else's writes to the open document: a save refused with 412 (their version is newer
 * than the one the form was read at) opens "Changed by someone else"; a change the live stream
 * reports loads their version when nothing is unsaved here, and otherwise lets the user decide
 * (docs/studio.md, "Live updates").
 */
export function useDocumentConflicts(form: DocumentForm, id: string) {
  const [refused, setRefused] = useState<{ status?: string } | null>(null);
  const shown = form.doc ? { rev: form.doc._rev as number, draft: form.doc._version === 'draft' } : undefined;
  const watch = useDocumentWatch(form.isNew ? undefined : id, shown, form.busy);
  const outside = watch.change;
  // Never while this page writes: `dirty` is false then, but the values being written are still
  // unsaved, and an event can come between the save starting and the watch learning of it;
  // reloading then replaced the values in flight with theirs, and "Overwrite with mine" wrote
  // theirs back. Once the write has answered, a change newer than what it shows is loaded if
  // nothing is unsaved.
  useEffect(() => {
    if (!outside || outside.deleted || form.unsaved || form.busy) return;
    if (showsChange(shown, outside)) return;
    form.reload();
    form.setNotice(
      outside.discarded
        ? 'Someone else discarded the draft; the live version is shown now.'
        : `Someone else saved a newer version (${outside.draft ? 'draft ' : ''}revision ${outside.rev}); it is shown now.`,
    );
  }, [outside?.rev, outside?.draft, outside?.discarded, outside?.deleted, form.busy]);

  /** Saves the form; a 412 asks whether to reload theirs or overwrite it. */
  const save = async (status?: string): Promise<SaveOutcome> => {
    const outcome = await form.save(status);
    if (outcome === 'conflict') setRefused({ status });
    return outcome;
  };
  return { outside, refused, setRefused, save, dismiss: watch.dismiss };
}

export function DocumentConflicts(props: { form: DocumentForm; conflicts: ReturnType<typeof useDocumentConflicts>; onLeave(): void }) {
  const { form, conflicts } = props;
  const { outside, refused, setRefused } = conflicts;
  return (
    <>
      {outside && (outside.deleted || form.dirty) && (
        <OutsideChangeNotice
          change={outside}
          onReload={() => {
            conflicts.dismiss();
            form.reload();
          }}
          onKeep={conflicts.dismiss}
          onLeave={props.onLeave}
        />
      )}
      <ConfirmDialog
        open={!!refused}
        onOpenChange={(open) => !open && setRefused(null)}
        title="Changed by someone else"
        actions={
          <>
            <button
              type="button"
              onClick={() => {
                setRefused(null);
                form.reload();
              }}
            >
              Reload their version
            </button>
            <button
              type="button"
              className="primary"
              onClick={() => {
                const status = refused?.status;
                setRefused(null);
                void form.save(status, { overwrite: true }).then((outcome) => outcome === 'conflict' && setRefused({ status }));
              }}
            >
              Overwrite with mine
            </button>
          </>
        }
      >
        <p>
          This document was saved by someone else after you opened it (you have revision {String(form.doc?._rev)}). Reload their version and
          lose your changes, or overwrite theirs with yours.
        </p>
      </ConfirmDialog>
    </>
  );
}
