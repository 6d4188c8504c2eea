import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';

/**
 * The modal every studio dialog is drawn in (Radix: focus stays inside, Escape closes, focus
 * returns to the trigger). Open by its `trigger`, by the caller through `open`, or both.
 */
export function DialogFrame(props: {
  title: string;
  trigger?: ReactNode;
  open?: boolean;
  onOpenChange?(open: boolean): void;
  /** A form wants more room than a question. */
  wide?: boolean;
  /** The text read out with the title; without it the dialog has no description. */
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Dialog.Root open={props.open} onOpenChange={props.onOpenChange}>
      {props.trigger && <Dialog.Trigger asChild>{props.trigger}</Dialog.Trigger>}
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className={props.wide ? 'dialog wide' : 'dialog'}
          {...(props.description === undefined ? { 'aria-describedby': undefined } : {})}
        >
          <Dialog.Title>{props.title}</Dialog.Title>
          {props.description !== undefined && (
            <Dialog.Description asChild>
              <div>{props.description}</div>
            </Dialog.Description>
          )}
          {props.children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
