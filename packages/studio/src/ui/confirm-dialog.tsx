import * as Dialog from '@radix-ui/react-dialog';
import { useMutation } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { DialogFrame } from './dialog-frame';
import { ErrorMessage } from './error-message';

type ConfirmDialogProps = {
  title: string;
  /** The question's text (the dialog's description). */
  children: ReactNode;
  /** The button on the page that opens it; without one the caller opens it through `open`. */
  trigger?: ReactNode;
  open?: boolean;
  onOpenChange?(open: boolean): void;
} & (
  | {
      /** The caller's own buttons (a choice between two ways on, as after a 412). */
      actions: ReactNode;
    }
  | {
      /** A danger button with this label, and Cancel: the dialog runs `onConfirm` and closes when it succeeds. */
      confirmLabel: string;
      onConfirm(): Promise<unknown>;
    }
);

/**
 * A question asked before going on (revoke, deactivate, delete, leave unsaved changes). With
 * `confirmLabel` it shows Cancel and the confirming button, busy while `onConfirm` runs, and its
 * error inside the dialog; with `actions` the buttons are the caller's.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const [ownOpen, setOwnOpen] = useState(false);
  const open = props.open ?? ownOpen;
  const setOpen = props.onOpenChange ?? setOwnOpen;
  return (
    <DialogFrame title={props.title} trigger={props.trigger} open={open} onOpenChange={setOpen} description={props.children}>
      {'actions' in props ? (
        <div className="row dialog-actions">{props.actions}</div>
      ) : (
        <ConfirmActions label={props.confirmLabel} onConfirm={props.onConfirm} onDone={() => setOpen(false)} />
      )}
    </DialogFrame>
  );
}

function ConfirmActions({ label, onConfirm, onDone }: { label: string; onConfirm(): Promise<unknown>; onDone(): void }) {
  const confirm = useMutation({ mutationFn: onConfirm, onSuccess: onDone });
  return (
    <>
      <ErrorMessage error={confirm.error} />
      <div className="row dialog-actions">
        <Dialog.Close asChild>
          <button type="button">Cancel</button>
        </Dialog.Close>
        <button type="button" className="primary danger" disabled={confirm.isPending} onClick={() => confirm.mutate()}>
          {label}
        </button>
      </div>
    </>
  );
}
