import type { FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useClaim, useClaimable } from '../queries/auth';
import { ErrorMessage } from '../ui/error-message';
import { AuthLayout } from './auth-layout';

/**
 * The first-boot claim (docs/api.md, "Authentication"): start-up prints
 * `/studio/claim?token=…` while the instance has no user; the first administrator is made here
 * and signed in.
 */
export default function ClaimPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const claimable = useClaimable();
  const claim = useClaim();
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = Object.fromEntries([...new FormData(e.currentTarget)].map(([k, v]) => [k, String(v)]));
    // Unawaited: the router handles a failed navigation itself.
    claim.mutate(form, { onSuccess: () => void navigate('/', { replace: true }) });
  };
  return (
    <AuthLayout title="Set up Vellum">
      {claimable.data === false && (
        <p role="alert">
          This instance already has its administrator. <Link to="/sign-in">Sign in</Link>
        </p>
      )}
      {claimable.data && (
        <form className="stack" onSubmit={submit} aria-label="Create the administrator">
          <p>Create the first administrator account. The setup token was printed by the server when it started.</p>
          <label>
            Setup token
            <input name="token" type="text" defaultValue={params.get('token') ?? ''} required autoComplete="off" />
          </label>
          <label>
            Username
            <input name="username" type="text" autoComplete="username" required />
          </label>
          <label>
            Email
            <input name="email" type="email" autoComplete="email" required />
          </label>
          <label>
            Password
            <input name="password" type="password" autoComplete="new-password" required />
          </label>
          <button className="primary" type="submit" disabled={claim.isPending}>
            Create the administrator
          </button>
        </form>
      )}
      <ErrorMessage error={claim.error ?? claimable.error} />
    </AuthLayout>
  );
}
