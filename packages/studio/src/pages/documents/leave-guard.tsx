import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { ConfirmDialog } from '../../ui/confirm-dialog';

const localeOf = (search: string) => new URLSearchParams(search).get('locale') ?? '';

/** Unsaved changes: leaving inside the studio asks (a dialog); closing or reloading the tab asks the browser. */
export function LeaveGuard({ dirty }: { dirty: boolean }) {
  // Another content locale (`?locale=`) is another form too: its values replace these.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && (currentLocation.pathname !== nextLocation.pathname || localeOf(currentLocation.search) !== localeOf(nextLocation.search)),
  );
  useEffect(() => {
    if (!dirty) return;
    const onUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', onUnload);
    return () => window.removeEventListener('beforeunload', onUnload);
  }, [dirty]);
  return (
    <ConfirmDialog
      open={blocker.state === 'blocked'}
      onOpenChange={(open) => !open && blocker.reset?.()}
      title="Leave without saving?"
      actions={
        <>
          <button type="button" onClick={() => blocker.reset?.()}>
            Stay
          </button>
          <button type="button" className="primary" onClick={() => blocker.proceed?.()}>
            Leave and lose changes
          </button>
        </>
      }
    >
      <p>This document has changes that are not saved.</p>
    </ConfirmDialog>
  );
}
