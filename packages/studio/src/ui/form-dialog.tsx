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
