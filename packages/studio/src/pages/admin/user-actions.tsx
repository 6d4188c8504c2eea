import type { User } from '@vellum/client';
import { useState } from 'react';
import { useResetUserMfa, useSendPasswordReset, useUpdateUser } from '../../queries/users';
import type { Session } from '../../auth/session';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { FormDialog } from '../../ui/form-dialog';
import { isAdmin } from '../../ui/not-allowed';
import type { UnsentLink } from './unsent-link';
import { UserForm } from './user-form';

/**
 * The buttons of one user's row: edit role and permissions, deactivate / activate (`users:write`;
 * an admin's account only by an admin, never one's own), send a password reset (`users:write`, an
 * admin's account only by an admin; docs/api.md "Password reset and invitations"), reset MFA
 * (admin role only, docs/api.md "Users"). `done` states what happened and reloads the list;
 * `onUnsent` shows a link no mail could carry.
 */
export function UserActions({
  user: u,
  session,
  mayWrite,
  mailOff,
  done,
  onFailure,
  onUnsent,
}: {
  user: User;
  session: Session;
  mayWrite: boolean;
  /** The server has no mail (`features.mail` false): links are answered, not mailed. */
  mailOff: boolean;
  done(message: string): void;
  onFailure(message: string): void;
  onUnsent(link: UnsentLink): void;
}) {
  const [editing, setEditing] = useState(false);
  const update = useUpdateUser();
  const sendReset = useSendPasswordReset();
  const resetMfa = useResetUserMfa();
  const admin = isAdmin(session);
  const mayChange = mayWrite && !(u.role === 'admin' && !admin);
  return (
    <div className="row">
      {mayChange && (
        <FormDialog
          title={`Edit ${u.username}`}
          open={editing}
          onOpenChange={setEditing}
          trigger={
            <button type="button" aria-label={`Edit ${u.username}`}>
              Edit
            </button>
          }
        >
          <UserForm
            mode="edit"
            session={session}
            user={u}
            onCancel={() => setEditing(false)}
            onSubmit={async (v) => {
              await update.mutateAsync({ id: u.id, update: { role: v.role, permissions: v.permissions } });
              setEditing(false);
              done(`${u.username} saved.`);
            }}
          />
        </FormDialog>
      )}
      {mayChange &&
        u.id !== session.user?.id &&
        (u.active ? (
          <ConfirmDialog
            title={`Deactivate ${u.username}?`}
            confirmLabel="Deactivate"
            trigger={
              <button type="button" aria-label={`Deactivate ${u.username}`}>
                Deactivate
              </button>
            }
            onConfirm={async () => {
              await update.mutateAsync({ id: u.id, update: { active: false } });
              done(`${u.username} deactivated.`);
            }}
          >
            <p>They are signed out at once and cannot sign in until activated again.</p>
          </ConfirmDialog>
        ) : (
          <button
            type="button"
            aria-label={`Activate ${u.username}`}
            onClick={() =>
              update.mutate(
                { id: u.id, update: { active: true } },
                {
                  onSuccess: () => done(`${u.username} activated.`),
                  onError: (err) => onFailure(err instanceof Error ? err.message : String(err)),
                },
              )
            }
          >
            Activate
          </button>
        ))}
      {mayChange && (
        <ConfirmDialog
          title={`Send ${u.username} a password reset?`}
          confirmLabel="Send password reset"
          trigger={
            <button type="button" aria-label={`Send password reset to ${u.username}`}>
              Send password reset
            </button>
          }
          onConfirm={async () => {
            const reset = await sendReset.mutateAsync(u.id);
            const what = reset.purpose === 'invite' ? 'Invitation link' : 'Reset link';
            if (reset.resetUrl) {
              onUnsent({ kind: reset.purpose, email: u.email, url: reset.resetUrl });
              done(`${what} for ${u.username} below; no mail was sent.`);
            } else done(`${what} sent to ${u.email}.`);
          }}
        >
          <p>
            {mailOff
              ? `Mail is not configured on this server: you get a link that lets ${u.username} choose a new password, to pass on yourself.`
              : `${u.email} gets a mail with a link to choose a new password.`}{' '}
            The link works once, for one hour; the current password keeps working until it is used.
            {!u.active &&
              ' An account still waiting for its invitation gets a fresh invitation link; a deactivated one must be activated first.'}
          </p>
        </ConfirmDialog>
      )}
      {admin && u.mfaEnabled && (
        <ConfirmDialog
          title={`Reset MFA of ${u.username}?`}
          confirmLabel="Reset MFA"
          trigger={
            <button type="button" aria-label={`Reset MFA of ${u.username}`}>
              Reset MFA
            </button>
          }
          onConfirm={async () => {
            await resetMfa.mutateAsync(u.id);
            done(`Second factors of ${u.username} removed.`);
          }}
        >
          <p>Every second factor, backup code and trusted device of this user is removed.</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
