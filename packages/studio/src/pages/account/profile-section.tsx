import { VellumApiError, type User } from '@vellum/client';
import { useState, type FormEvent } from 'react';
import { useUpdateProfile } from '../../queries/account';
import { replaceSessionUser, type Session } from '../../auth/session';
import { ErrorMessage } from '../../ui/error-message';

const LABELS = { firstName: 'First name', lastName: 'Last name', email: 'Email', currentPassword: 'Current password' };
type Field = keyof typeof LABELS;

/** The server's refusal, as messages on the fields it names (422 details, a 409 taken email, a 403 wrong password). */
function fieldErrors(error: unknown): Partial<Record<Field, string>> {
  if (!(error instanceof VellumApiError)) return {};
  if (error.status === 403) return { currentPassword: 'The current password is wrong.' };
  const out: Partial<Record<Field, string>> = {};
  for (const d of error.details ?? []) {
    if (!(d.field in LABELS)) continue;
    const field = d.field as Field;
    out[field] = field === 'email' && error.status === 409 ? 'Another account has this email.' : `${LABELS[field]} ${d.message}.`;
  }
  return out;
}

/**
 * `PATCH /auth/me` (docs/api.md, "Self-service profile"): the user's name and email. A new email
 * asks for the current password (the server checks it; accounts without a password need none).
 * Username, role and permissions are an administrator's to change.
 */
export function ProfileSection({ session }: { session: Session }) {
  const user = session.user;
  const update = useUpdateProfile();
  const { isPending: busy, error } = update;
  const [done, setDone] = useState(false);
  const [values, setValues] = useState({ firstName: user?.firstName ?? '', lastName: user?.lastName ?? '', email: user?.email ?? '' });
  const [currentPassword, setCurrentPassword] = useState('');
  const emailChanged = !!user && values.email.trim().toLowerCase() !== user.email;
  const errors = fieldErrors(error);
  const unplaced = Object.keys(errors).length === 0 ? error : undefined;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setDone(false);
    update.mutate(
      {
        firstName: values.firstName.trim() || null,
        lastName: values.lastName.trim() || null,
        ...(emailChanged && { email: values.email.trim(), ...(currentPassword && { currentPassword }) }),
      },
      {
        onSuccess: (saved: User) => {
          replaceSessionUser(saved);
          setValues({ firstName: saved.firstName ?? '', lastName: saved.lastName ?? '', email: saved.email });
          setCurrentPassword('');
          setDone(true);
        },
      },
    );
  };
  const field = (name: Field) => ({
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `profile-${name}-error` : undefined,
  });
  const message = (name: Field) =>
    errors[name] && (
      <span id={`profile-${name}-error`} className="error">
        {errors[name]}
      </span>
    );
  return (
    <section className="panel" aria-labelledby="profile-title">
      <h2 id="profile-title">Profile</h2>
      <form className="stack" onSubmit={submit} aria-labelledby="profile-title">
        <label>
          First name
          <input
            type="text"
            value={values.firstName}
            maxLength={100}
            autoComplete="given-name"
            onChange={(e) => setValues({ ...values, firstName: e.target.value })}
            {...field('firstName')}
          />
        </label>
        {message('firstName')}
        <label>
          Last name
          <input
            type="text"
            value={values.lastName}
            maxLength={100}
            autoComplete="family-name"
            onChange={(e) => setValues({ ...values, lastName: e.target.value })}
            {...field('lastName')}
          />
        </label>
        {message('lastName')}
        <label>
          Email
          <input
            type="email"
            required
            value={values.email}
            maxLength={254}
            autoComplete="email"
            onChange={(e) => setValues({ ...values, email: e.target.value })}
            {...field('email')}
          />
        </label>
        {message('email')}
        {emailChanged && (
          <>
            <label>
              Current password (to change the email)
              <input
                type="password"
                value={currentPassword}
                autoComplete="current-password"
                onChange={(e) => setCurrentPassword(e.target.value)}
                {...field('currentPassword')}
              />
            </label>
            {message('currentPassword')}
          </>
        )}
        <ErrorMessage error={unplaced} />
        {done && <p role="status">Profile saved.</p>}
        <div className="row">
          <button type="submit" className="primary" disabled={busy}>
            Save profile
          </button>
        </div>
      </form>
      <dl className="facts">
        <dt>Username</dt>
        <dd>{user?.username}</dd>
        <dt>Role</dt>
        <dd>{user?.role}</dd>
        <dt>Permissions</dt>
        <dd>{session.permissions.join(', ')}</dd>
      </dl>
      <p className="muted">An administrator changes your username, role and permissions.</p>
    </section>
  );
}
