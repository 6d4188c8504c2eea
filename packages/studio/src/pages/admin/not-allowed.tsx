import { can, useSession, type Session } from '../../auth/session';

/**
 * Administration pages are shown only to those allowed (docs/studio.md, "Pages"): `allowed`
 * decides from the session's effective permissions (`POST /auth/validate`); everyone else reads
 * why, instead of a page of refused calls.
 */
export function useAllowed(allowed: (session: Session) => boolean): { session: Session; ok: boolean } {
  const session = useSession();
  return { session, ok: allowed(session) };
}

export const isAdmin = (session: Session) => session.user?.role === 'admin';
export const hasPermission = (permission: string) => (session: Session) => isAdmin(session) || can(session, permission);

export function NotAllowed({ title, needs }: { title: string; needs: string }) {
  return (
    <>
      <h1>{title}</h1>
      <p role="alert">You do not have access to this page: it needs {needs}. Ask an administrator if you need it.</p>
    </>
  );
}
