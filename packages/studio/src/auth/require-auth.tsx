import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { AuthLayout } from './auth-layout';
import { can, signOut, useSession } from './session';

/**
 * Pages for signed-in users only. Signed out (or the sign-in expired): to the sign-in page, which
 * comes back here afterwards. `studio`: the page also needs the `studio:access` permission, and a
 * user without it is told so (the OAuth approval pages do not need it).
 */
export function RequireAuth({ children, studio = true }: { children: ReactNode; studio?: boolean }) {
  const session = useSession();
  const location = useLocation();
  if (session.status === 'loading')
    return (
      <p className="loading" role="status">
        Loading…
      </p>
    );
  if (session.status === 'signedOut') {
    const next = location.pathname + location.search;
    return <Navigate to={`/sign-in?next=${encodeURIComponent(next)}`} replace />;
  }
  if (studio && !can(session, 'studio:access'))
    return (
      <AuthLayout title="No access to the studio">
        <p role="alert">
          You are signed in as <strong>{session.user?.username}</strong>, but your account may not use the studio. Ask an administrator for
          studio access.
        </p>
        <button type="button" onClick={() => void signOut()}>
          Sign out
        </button>
      </AuthLayout>
    );
  return <>{children}</>;
}
