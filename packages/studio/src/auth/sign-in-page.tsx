import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { AuthLayout } from './auth-layout';
import { establishSession, useSession } from './session';
import { SignInFlow } from './sign-in-flow';

/** Where a sign-in goes back to: only a path of the studio itself (never another site). */
export function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

export default function SignInPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const session = useSession();
  const next = safeNext(params.get('next'));
  if (session.status === 'signedIn') return <Navigate to={next} replace />;
  return (
    <AuthLayout title="Sign in">
      {session.expired && <p role="status">Your session has ended. Sign in again to continue.</p>}
      <SignInFlow
        onSignedIn={async () => {
          await establishSession();
          await navigate(next, { replace: true });
        }}
      />
    </AuthLayout>
  );
}
