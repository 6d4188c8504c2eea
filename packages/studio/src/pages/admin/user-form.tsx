import type { User } from '@vellum/client';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Session } from '../../auth/session';
import { ErrorMessage } from '../../ui/error-message';
import { isAdmin } from '../../ui/not-allowed';
import { PermissionPicker } from './permission-picker';
import { FormDialogActions } from '../../ui/form-dialog';

export const ROLES = ['admin', 'editor', 'author', 'writer', 'viewer', 'api'];

export interface UserFormValues {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  password: string;
  role: string;
  permissions: string[];
}

/**
 * The fields of a new user (`create`, with a password), an invitation (`invite`, no password:
 * the mailed link sets it) or a change of role and permissions (`edit`). Only an admin may
 * choose the admin role (docs/api.md, "Users"); the server checks again.
 */
export function UserForm({
  mode,
  session,
  user,
  onSubmit,
  onCancel,
}: {
  mode: 'create' | 'invite' | 'edit';
  session: Session;
  user?: User;
  onSubmit: (values: UserFormValues) => Promise<unknown>;
  onCancel: () => void;
}) {
  const [values, setValues] = useState<UserFormValues>({
    username: user?.username ?? '',
    email: user?.email ?? '',
    firstName: user?.firstName ?? '',
    lastName: user?.lastName ?? '',
    password: '',
    role: user?.role ?? 'viewer',
    permissions: user?.permissions ?? [],
  });
  const submitted = useMutation({ mutationFn: onSubmit });
  const set = (field: keyof UserFormValues) => (e: { target: { value: string } }) => setValues({ ...values, [field]: e.target.value });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    submitted.mutate(values);
  };
  const admin = isAdmin(session);
  const label = mode === 'create' ? 'Create user' : mode === 'invite' ? 'Send invitation' : 'Save changes';
  return (
    <form className="stack" onSubmit={submit}>
      {mode !== 'edit' && (
        <>
          <div className="row">
            <label style={{ flex: 1 }}>
              Username
              <input type="text" required autoComplete="off" value={values.username} onChange={set('username')} />
            </label>
            <label style={{ flex: 1 }}>
              Email
              <input type="email" required autoComplete="off" value={values.email} onChange={set('email')} />
            </label>
          </div>
          <div className="row">
            <label style={{ flex: 1 }}>
              First name
              <input type="text" value={values.firstName} onChange={set('firstName')} />
            </label>
            <label style={{ flex: 1 }}>
              Last name
              <input type="text" value={values.lastName} onChange={set('lastName')} />
            </label>
          </div>
        </>
      )}
      {mode === 'create' && (
        <label>
          Password
          <input type="password" required autoComplete="new-password" value={values.password} onChange={set('password')} />
        </label>
      )}
      <label>
        Role
        <select value={values.role} onChange={set('role')}>
          {ROLES.map((r) => (
            <option key={r} value={r} disabled={r === 'admin' && !admin}>
              {r}
            </option>
          ))}
        </select>
      </label>
      <PermissionPicker
        session={session}
        value={values.permissions}
        onChange={(permissions) => setValues({ ...values, permissions })}
        legend="Extra permissions (on top of the role's)"
      />
      <ErrorMessage error={submitted.error} />
      <FormDialogActions submitLabel={label} busy={submitted.isPending} onCancel={onCancel} />
    </form>
  );
}
