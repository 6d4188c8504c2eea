import { can, useSession, type Session } from '../auth/session';

/**
 * A page shown only to those allowed (the administration pages, docs/studio.md "Pages"):
 * `allowed` decides from the session's effective permissions (`POST /auth/validate`); everyone
 * else reads why (`NotAllowed`), instead of a page of refused calls.
 */
export function useAllowed(allowed: (session: Session) => boolean): { session: Session; ok: boolean } {
  const session = useSession();
  return { session, ok: allowed(session) };
}

/** The admin role holds every permission, whatever `permissions` lists. */
export const isAdmin = (session: Session) => session.user?.role === 'admin';
export const hasPermission = (permission: string) => (session: Session) => isAdmin(session) || can(session, permission);

/** The page's title and which permission (or role) it needs. */
export function NotAllowed({ title, needs }: { title: string; needs: string }) {
  return (
    <>
      <h1>{title}</h1>
      <p role="alert">You do not have access to this page: it needs {needs}. Ask an administrator if you need it.</p>
    </>
  );
}
