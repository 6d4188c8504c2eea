import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';

/** A modal question (Radix dialog: focus trapped, Escape closes) with the actions given as children. */
export function ConfirmDialog(props: {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  children: ReactNode;
  actions: ReactNode;
}) {
  return (
    <Dialog.Root open={props.open} onOpenChange={props.onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title>{props.title}</Dialog.Title>
          <Dialog.Description asChild>
            <div>{props.children}</div>
          </Dialog.Description>
          <div className="row">{props.actions}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
