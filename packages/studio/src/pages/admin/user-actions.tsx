import type { User } from '@vellum/client';
import { useState } from 'react';
import { client } from '../../api/client';
import type { Session } from '../../auth/session';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { FormDialog } from '../../ui/form-dialog';
import { isAdmin } from '../../ui/not-allowed';
import { UserForm } from './user-form';

/**
 * The buttons of one user's row: edit role and permissions, deactivate / activate (`users:write`;
 * an admin's account only by an admin, never one's own), reset MFA (admin role only, docs/api.md
 * "Users"). `done` states what happened and reloads the list.
 */
export function UserActions({
  user: u,
  session,
  mayWrite,
  done,
  onFailure,
}: {
  user: User;
  session: Session;
  mayWrite: boolean;
  done(message: string): Promise<void>;
  onFailure(message: string): void;
}) {
  const [editing, setEditing] = useState(false);
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
              await client.users.update(u.id, { role: v.role, permissions: v.permissions });
              setEditing(false);
              await done(`${u.username} saved.`);
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
              await client.users.update(u.id, { active: false });
              await done(`${u.username} deactivated.`);
            }}
          >
            <p>They are signed out at once and cannot sign in until activated again.</p>
          </ConfirmDialog>
        ) : (
          <button
            type="button"
            aria-label={`Activate ${u.username}`}
            onClick={() =>
              void client.users
                .update(u.id, { active: true })
                .then(() => done(`${u.username} activated.`))
                .catch((err: unknown) => onFailure(err instanceof Error ? err.message : String(err)))
            }
          >
            Activate
          </button>
        ))}
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
            await client.users.resetMfa(u.id);
            await done(`Second factors of ${u.username} removed.`);
          }}
        >
          <p>Every second factor, backup code and trusted device of this user is removed.</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
