import type { User } from '@vellum/client';
import { useSyncExternalStore } from 'react';
import { client, onTokensChange, restoreStoredTokens } from '../api/client';
import { queryClient } from '../api/query-client';

/**
 * Who is signed in, as one small store the whole studio reads (`useSession`). It follows the
 * client's tokens: when a refresh is refused after a 401 the client forgets them, and the
 * session becomes `signedOut` with `expired` set, so the guard sends the user to sign in and
 * back to the page afterwards (docs/studio.md, "Signing in").
 */
export interface Session {
  status: 'loading' | 'signedOut' | 'signedIn';
  user?: User;
  /** Effective permissions (`POST /auth/validate`). */
  permissions: string[];
  /** The sign-in ended by itself (a refused refresh), not by signing out. */
  expired?: boolean;
}

let state: Session = { status: 'loading', permissions: [] };
const subscribers = new Set<() => void>();

function set(next: Session) {
  // Another user's (or nobody's) data must not stay in the cache.
  if (next.status !== 'signedIn' || next.user?.id !== state.user?.id) queryClient.clear();
  state = next;
  for (const s of subscribers) s();
}

export function useSession(): Session {
  return useSyncExternalStore(
    (cb) => {
      subscribers.add(cb);
      return () => subscribers.delete(cb);
    },
    () => state,
  );
}

export const can = (session: Session, permission: string) => session.permissions.includes(permission);

/** Reads the signed-in user and their permissions with the tokens the client now holds. */
export async function establishSession(): Promise<void> {
  const [user, validation] = await Promise.all([client.auth.me(), client.auth.validate()]);
  set({ status: 'signedIn', user, permissions: validation.permissions });
}

/** The signed-in user as the server answered a change to it (`PATCH /auth/me`). */
export function replaceSessionUser(user: User): void {
  if (state.status === 'signedIn' && state.user?.id === user.id) set({ ...state, user });
}

let signingOut = false;

export async function signOut(): Promise<void> {
  signingOut = true;
  try {
    await client.auth.logout();
  } finally {
    signingOut = false;
    set({ status: 'signedOut', permissions: [] });
  }
}

/** At start: a refresh token kept by this tab renews the sign-in; otherwise signed out. */
export async function startSession(): Promise<void> {
  onTokensChange((tokens) => {
    if (!tokens && state.status === 'signedIn' && !signingOut) set({ status: 'signedOut', permissions: [], expired: true });
  });
  if (!restoreStoredTokens()) return set({ status: 'signedOut', permissions: [] });
  try {
    await client.auth.refresh();
    await establishSession();
  } catch {
    await client.setTokens(undefined);
    set({ status: 'signedOut', permissions: [] });
  }
}
