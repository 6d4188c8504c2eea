import { VellumClient, type ClientTokens } from '@vellum/client';
import { browserFetch } from './browser-fetch';

/**
 * The one client the studio talks to the server through (docs/client.md). The access token lives
 * in memory only; the refresh token is kept in sessionStorage so that reloading the tab keeps
 * the sign-in, and closing the tab ends it (docs/studio.md, "Signing in").
 */
const STORED = 'vellum.studio.session';

/** The API base path, put in index.html by the server (`server.basePath`). */
export const apiBase = document.querySelector<HTMLMetaElement>('meta[name="vellum-api"]')?.content || '/api';

type Listener = (tokens: ClientTokens | undefined) => void;
const listeners = new Set<Listener>();

export const client = new VellumClient({
  baseUrl: apiBase,
  fetch: browserFetch,
  onTokens(tokens) {
    if (tokens?.refreshToken) {
      const { kind, refreshToken, clientId } = tokens;
      sessionStorage.setItem(STORED, JSON.stringify({ kind, refreshToken, clientId }));
    } else sessionStorage.removeItem(STORED);
    for (const l of listeners) l(tokens);
  },
});

/** Called each time the held tokens change; `undefined`: the sign-in ended (sign-out, refused refresh). */
export function onTokensChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The refresh token this tab kept, held again so that the first refresh renews the sign-in. */
export function restoreStoredTokens(): boolean {
  const raw = sessionStorage.getItem(STORED);
  if (!raw) return false;
  try {
    const saved = JSON.parse(raw) as Pick<ClientTokens, 'kind' | 'refreshToken' | 'clientId'>;
    if (!saved.refreshToken) return false;
    client.transport.replaceTokens({ ...saved, accessToken: '' });
    return true;
  } catch {
    sessionStorage.removeItem(STORED);
    return false;
  }
}

const DEVICE = 'vellum.studio.deviceId';

/** This browser's device id (known and trusted devices, docs/authentication.md); made once, kept in localStorage. */
export function deviceId(): string {
  let id = localStorage.getItem(DEVICE);
  if (!id) {
    id = crypto.randomUUID();
    localStorage.setItem(DEVICE, id);
  }
  return id;
}
