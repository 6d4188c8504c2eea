import { VellumApiError } from '@vellum/client';
import { useState, type FormEvent } from 'react';
import { useChangePassword } from '../../queries/account';
import { ErrorMessage } from '../../ui/error-message';

/** `POST /auth/change-password` (docs/api.md): the current password, then the new one twice. Other sessions end. */
export function PasswordSection() {
  const change = useChangePassword();
  const { isPending: busy, error } = change;
  const [done, setDone] = useState(false);
  const [mismatch, setMismatch] = useState(false);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const next = String(data.get('newPassword'));
    setDone(false);
    setMismatch(next !== String(data.get('confirmPassword')));
    if (next !== String(data.get('confirmPassword'))) return;
    change.mutate(
      { current: String(data.get('currentPassword')), next },
      {
        onSuccess: () => {
          form.reset();
          setDone(true);
        },
      },
    );
  };
  return (
    <section className="panel" aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <form className="stack" onSubmit={submit}>
        <label>
          Current password
          <input type="password" name="currentPassword" required autoComplete="current-password" />
        </label>
        <label>
          New password
          <input type="password" name="newPassword" required autoComplete="new-password" />
        </label>
        <label>
          Repeat the new password
          <input type="password" name="confirmPassword" required autoComplete="new-password" />
        </label>
        {mismatch && <p role="alert">The two new passwords differ.</p>}
        {error instanceof VellumApiError && error.status === 403 ? (
          <p role="alert">The current password is wrong.</p>
        ) : (
          <ErrorMessage error={error} />
        )}
        {done && <p role="status">Password changed. Your other sessions have been signed out.</p>}
        <div className="row">
          <button type="submit" className="primary" disabled={busy}>
            Change password
          </button>
        </div>
      </form>
    </section>
  );
}
