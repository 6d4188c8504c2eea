import { useState, type FormEvent } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { useRequestPasswordReset, useResetPassword, useResetStatus, useResetToken } from '../queries/auth';
import { ErrorMessage } from '../ui/error-message';
import { AuthLayout } from './auth-layout';

/**
 * The pages the mailed links open (docs/api.md, "Password reset and invitations"):
 * `/studio/reset-password?token=…` and `/studio/accept-invite?token=…` choose a new password;
 * `/studio/reset-password` without a token asks for the link, or, on a server without mail, says
 * that none can be mailed and that an administrator hands the links out.
 */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const invite = useLocation().pathname.endsWith('/accept-invite');
  const title = invite ? 'Accept your invitation' : token ? 'Choose a new password' : 'Reset your password';
  return <AuthLayout title={title}>{token ? <NewPassword token={token} invite={invite} /> : <RequestLink />}</AuthLayout>;
}

function RequestLink() {
  const status = useResetStatus();
  const request = useRequestPasswordReset();
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    request.mutate(String(new FormData(e.currentTarget).get('email')));
  };
  if (status.isPending) return <p role="status">Loading…</p>;
  // Without mail a request would be answered as usual, but no mail could leave: say so instead.
  if (status.data?.mail === false)
    return (
      <div className="stack">
        <p role="status">
          Mail is not configured on this instance, so no reset link can be mailed to you. Ask an administrator for a reset link: they can
          make one for your account in the studio&apos;s Users page.
        </p>
        <Link to="/sign-in">Back to sign-in</Link>
      </div>
    );
  if (request.isSuccess)
    return (
      <p role="status">
        If an account has this address, a link to choose a new password is on its way. <Link to="/sign-in">Back to sign-in</Link>
      </p>
    );
  return (
    <form className="stack" onSubmit={submit} aria-label="Request a reset link">
      <label>
        Email address
        <input name="email" type="email" autoComplete="email" required autoFocus />
      </label>
      <button className="primary" type="submit" disabled={request.isPending}>
        Send me a link
      </button>
      <ErrorMessage error={request.error} />
      <Link to="/sign-in">Back to sign-in</Link>
    </form>
  );
}

function NewPassword({ token, invite }: { token: string; invite: boolean }) {
  const valid = useResetToken(token);
  const [mismatch, setMismatch] = useState(false);
  const reset = useResetPassword(token);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const password = String(form.get('password'));
    setMismatch(password !== String(form.get('confirm')));
    if (password === String(form.get('confirm'))) reset.mutate(password);
  };
  if (valid.isPending) return <p role="status">Checking the link…</p>;
  if (valid.data === false)
    return (
      <p role="alert">
        This link is no longer valid (it was used, or it expired). <Link to="/reset-password">Ask for a new one</Link>.
      </p>
    );
  if (reset.isSuccess)
    return (
      <p role="status">
        {invite ? 'Your account is ready.' : 'Your password was changed.'} <Link to="/sign-in">Sign in</Link>
      </p>
    );
  return (
    <form className="stack" onSubmit={submit} aria-label="Choose a password">
      <label>
        New password
        <input name="password" type="password" autoComplete="new-password" required autoFocus />
      </label>
      <label>
        Repeat the password
        <input name="confirm" type="password" autoComplete="new-password" required />
      </label>
      {mismatch && <p role="alert">The two passwords differ.</p>}
      <button className="primary" type="submit" disabled={reset.isPending}>
        {invite ? 'Set my password' : 'Change my password'}
      </button>
      <ErrorMessage error={reset.error ?? valid.error} />
    </form>
  );
}
