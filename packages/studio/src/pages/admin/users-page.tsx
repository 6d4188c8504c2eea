import type { User } from '@vellum/client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { client } from '../../api/client';
import { can } from '../../auth/session';
import { ErrorMessage } from '../../ui/error-message';
import { usePageTitle } from '../../ui/page-title';
import './admin.css';
import { ConfirmDialog, FormDialog } from './confirm-dialog';
import { hasPermission, isAdmin, NotAllowed, useAllowed } from './not-allowed';
import { ROLES, UserForm, type UserFormValues } from './user-form';

const PAGE = 25;
const TABLE_LABEL = 'Users';
const optional = (s: string) => s.trim() || undefined;

/**
 * Users (docs/api.md, "Users"): search and role filter, create, invite, change role and
 * permissions, deactivate / activate, and (admins only, by role) reset a user's MFA.
 */
export default function UsersPage() {
  usePageTitle('Users');
  const { session, ok } = useAllowed(hasPermission('users:read'));
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [role, setRole] = useState('');
  const [offset, setOffset] = useState(0);
  const [dialog, setDialog] = useState<'create' | 'invite' | { edit: User }>();
  const [notice, setNotice] = useState('');
  const users = useQuery({
    queryKey: ['users', search, role, offset],
    queryFn: () => client.users.list({ search: search || undefined, role: role || undefined, limit: PAGE, offset }),
    enabled: ok,
    placeholderData: (previous) => previous,
  });
  if (!ok) return <NotAllowed title="Users" needs="the users:read permission" />;
  const admin = isAdmin(session);
  const mayWrite = admin || can(session, 'users:write');
  const mayInvite = mayWrite || can(session, 'users:invite');
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['users'] });
  const close = () => setDialog(undefined);
  const done = async (message: string) => {
    setNotice(message);
    close();
    await refresh();
  };
  const create = async (v: UserFormValues) => {
    const fields = { username: v.username.trim(), email: v.email.trim(), firstName: optional(v.firstName), lastName: optional(v.lastName) };
    if (dialog === 'invite') {
      await client.users.invite({ ...fields, role: v.role, permissions: v.permissions });
      await done(`Invitation sent to ${fields.email}.`);
    } else {
      await client.users.create({ ...fields, password: v.password, role: v.role, permissions: v.permissions });
      await done(`User ${fields.username} created.`);
    }
  };
  const total = users.data?.meta.total ?? 0;
  return (
    <>
      <h1>Users</h1>
      <div className="toolbar">
        <label>
          Search users
          <input
            type="search"
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              setOffset(0);
            }}
          />
        </label>
        <label>
          Filter by role
          <select
            value={role}
            onChange={(e) => {
              setRole(e.target.value);
              setOffset(0);
            }}
          >
            <option value="">All roles</option>
            {ROLES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </label>
        {mayWrite && (
          <FormDialog
            title="New user"
            open={dialog === 'create'}
            onOpenChange={(o) => setDialog(o ? 'create' : undefined)}
            trigger={
              <button type="button" className="primary">
                New user
              </button>
            }
          >
            <UserForm mode="create" session={session} onSubmit={create} onCancel={close} />
          </FormDialog>
        )}
        {mayInvite && (
          <FormDialog
            title="Invite a user"
            open={dialog === 'invite'}
            onOpenChange={(o) => setDialog(o ? 'invite' : undefined)}
            trigger={<button type="button">Invite</button>}
          >
            <p className="muted">The user gets an email with a link to choose a password; the account is active from then on.</p>
            <UserForm mode="invite" session={session} onSubmit={create} onCancel={close} />
          </FormDialog>
        )}
      </div>
      {notice && <p role="status">{notice}</p>}
      <ErrorMessage error={users.error} />
      {users.data && users.data.data.length === 0 && <p className="muted">No users match.</p>}
      {users.data && users.data.data.length > 0 && (
        <div className="table-wrap" tabIndex={0} role="region" aria-label={TABLE_LABEL}>
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Extra permissions</th>
                <th scope="col">Status</th>
                <th scope="col">MFA</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.data.data.map((u) => {
                const protectedAdmin = u.role === 'admin' && !admin;
                return (
                  <tr key={u.id}>
                    <td>
                      <strong>{u.username}</strong>
                      {u.name !== u.username && <div className="muted">{u.name}</div>}
                    </td>
                    <td>{u.email}</td>
                    <td>{u.role}</td>
                    <td>{u.permissions.join(', ') || '—'}</td>
                    <td>
                      <span className="badge">{u.active ? 'Active' : 'Inactive'}</span>
                    </td>
                    <td>{u.mfaEnabled ? 'On' : 'Off'}</td>
                    <td>
                      <div className="row">
                        {mayWrite && !protectedAdmin && (
                          <FormDialog
                            title={`Edit ${u.username}`}
                            open={typeof dialog === 'object' && dialog.edit.id === u.id}
                            onOpenChange={(o) => setDialog(o ? { edit: u } : undefined)}
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
                              onCancel={close}
                              onSubmit={async (v) => {
                                await client.users.update(u.id, { role: v.role, permissions: v.permissions });
                                await done(`${u.username} saved.`);
                              }}
                            />
                          </FormDialog>
                        )}
                        {mayWrite &&
                          !protectedAdmin &&
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
                                  .catch((err: unknown) => setNotice(err instanceof Error ? err.message : String(err)))
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
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {total > PAGE && (
        <nav className="pager" aria-label="Pages of users">
          <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
            Previous
          </button>
          <span>
            {offset + 1}–{Math.min(offset + PAGE, total)} of {total}
          </span>
          <button type="button" disabled={offset + PAGE >= total} onClick={() => setOffset(offset + PAGE)}>
            Next
          </button>
        </nav>
      )}
    </>
  );
}
