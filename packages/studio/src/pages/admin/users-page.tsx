import { useState } from 'react';
import { useCreateUser, useInviteUser, useUsers } from '../../queries/users';
import { useStudioConfig } from '../../queries/config';
import { can } from '../../auth/session';
import { FormDialog } from '../../ui/form-dialog';
import { ListTable } from '../../ui/list-table';
import { hasPermission, NotAllowed, useAllowed } from '../../ui/not-allowed';
import { OffsetPager } from '../../ui/offset-pager';
import { usePageTitle } from '../../ui/page-title';
import './admin.css';
import { UnsentLinkPanel, type UnsentLink } from './unsent-link';
import { UserActions } from './user-actions';
import { ROLES, UserForm, type UserFormValues } from './user-form';
import { useToast } from '../../ui/toast';

const PAGE = 25;
const optional = (s: string) => s.trim() || undefined;

/**
 * Users (docs/api.md, "Users"): search and role filter, create, invite, change role and
 * permissions, deactivate / activate, send a password reset, and (admins only, by role) reset a
 * user's MFA. Without mail on the server an invitation or a reset link cannot be sent: the server
 * answers the link, shown here to copy.
 */
export default function UsersPage() {
  usePageTitle('Users');
  const { session, ok } = useAllowed(hasPermission('users:read'));
  const [search, setSearch] = useState('');
  const [role, setRole] = useState('');
  const [offset, setOffset] = useState(0);
  const [dialog, setDialog] = useState<'create' | 'invite'>();
  const [notice, setNotice] = useState('');
  const toast = useToast();
  // The link of an invitation or reset no mail could carry (`inviteUrl`, `resetUrl`), until "Done".
  const [unsent, setUnsent] = useState<UnsentLink>();
  const config = useStudioConfig();
  const mailOff = config.data?.features.mail === false;
  const users = useUsers({ search: search || undefined, role: role || undefined, limit: PAGE, offset }, ok);
  const createUser = useCreateUser();
  const inviteUser = useInviteUser();
  if (!ok) return <NotAllowed title="Users" needs="the users:read permission" />;
  const mayWrite = hasPermission('users:write')(session);
  const mayInvite = mayWrite || can(session, 'users:invite');
  const close = () => setDialog(undefined);
  // A success is a toast (src/ui/toast.tsx); a failure stays on the page until the next action.
  const done = (message: string) => {
    setNotice('');
    toast(message);
    close();
  };
  const create = async (v: UserFormValues) => {
    const fields = { username: v.username.trim(), email: v.email.trim(), firstName: optional(v.firstName), lastName: optional(v.lastName) };
    if (dialog === 'invite') {
      const invited = await inviteUser.mutateAsync({ ...fields, role: v.role, permissions: v.permissions });
      setUnsent(invited.inviteUrl ? { kind: 'invite', email: fields.email, url: invited.inviteUrl } : undefined);
      done(invited.inviteUrl ? `${fields.username} invited; no mail was sent.` : `Invitation sent to ${fields.email}.`);
    } else {
      await createUser.mutateAsync({ ...fields, password: v.password, role: v.role, permissions: v.permissions });
      done(`User ${fields.username} created.`);
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
            <p className="muted">
              {mailOff
                ? 'Mail is not configured on this server: you get the link that lets the user choose a password, to pass on yourself.'
                : 'The user gets an email with a link to choose a password; the account is active from then on.'}
            </p>
            <UserForm mode="invite" session={session} onSubmit={create} onCancel={close} />
          </FormDialog>
        )}
      </div>
      {notice && <p role="status">{notice}</p>}
      {unsent && <UnsentLinkPanel link={unsent} onDone={() => setUnsent(undefined)} />}
      <ListTable
        label="Users"
        columns={['User', 'Email', 'Role', 'Extra permissions', 'Status', 'MFA']}
        actions
        list={users}
        empty="No users match."
      >
        {(u) => (
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
              <UserActions
                user={u}
                session={session}
                mayWrite={mayWrite}
                mailOff={mailOff}
                done={done}
                onFailure={setNotice}
                onUnsent={setUnsent}
              />
            </td>
          </tr>
        )}
      </ListTable>
      <OffsetPager label="Pages of users" offset={offset} pageSize={PAGE} total={total} onChange={setOffset} />
    </>
  );
}
