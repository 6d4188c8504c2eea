import type { ReactNode } from 'react';
import { DialogFrame } from './dialog-frame';

/** A dialog holding a form (create user, edit user, invite): the caller closes it when the form is done. */
export function FormDialog(props: {
  trigger: ReactNode;
  title: string;
  open: boolean;
  onOpenChange(open: boolean): void;
  children: ReactNode;
}) {
  return <DialogFrame wide {...props} />;
}

/** The footer of a form in a `FormDialog`: Cancel, then the submit button (disabled while the form is busy). */
export function FormDialogActions({ submitLabel, busy, onCancel }: { submitLabel: string; busy: boolean; onCancel(): void }) {
  return (
    <div className="row dialog-actions">
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
      <button type="submit" className="primary" disabled={busy}>
        {submitLabel}
      </button>
    </div>
  );
}
