import { rmSync, statSync, openSync, closeSync } from 'node:fs';
import { CliError, EXIT } from '../command.js';
import { networkCode } from '../describe-failure.js';
import { clearTokens, credentialsPath, readCredentials, saveRotatedTokens, type Env, type StoredProfile } from './credentials.js';

/** A token this close to its expiry counts as expired: the request still has to travel. */
const EARLY_MS = 30_000;
/** A lock older than this was left by a process that died while refreshing. */
const STALE_LOCK_MS = 30_000;
const LOCK_WAIT_MS = 15_000;

const expired = (p: StoredProfile, now: number) => p.expiresAt !== undefined && Date.parse(p.expiresAt) - EARLY_MS <= now;

/**
 * The access token of an OAuth profile, refreshed first when it has expired (RFC 6749 §6, with
 * the rotation of docs/api.md: each refresh token works once). Refresh tokens are single-use and
 * a reused one revokes the whole grant, so two `vellum` processes must never both spend the same
 * one: the refresh runs under a lock file next to the credentials, and a process that waited for
 * the lock takes the tokens the other one stored instead of refreshing again.
 */
export async function freshOAuthToken(profileName: string, env: Env = process.env, now: () => number = Date.now): Promise<string> {
  const before = readCredentials(env).profiles[profileName];
  if (!before?.accessToken) throw new CliError(`profile "${profileName}" has no credentials: run vellum login`, EXIT.noPerm);
  if (!expired(before, now())) return before.accessToken;
  return withLock(credentialsPath(env), async () => {
    // 1. Another process may have refreshed while this one waited.
    const current = readCredentials(env).profiles[profileName];
    if (!current?.accessToken) throw new CliError(`profile "${profileName}" has no credentials: run vellum login`, EXIT.noPerm);
    if (!expired(current, now())) return current.accessToken;
    if (!current.refreshToken || !current.clientId)
      throw new CliError(`the login of profile "${profileName}" has expired: run vellum login`, EXIT.noPerm);
    // 2. Spend the refresh token; store the new pair before anything else can fail.
    const tokens = await requestRefresh(current);
    if ('error' in tokens) {
      if (tokens.error === 'invalid_grant') {
        clearTokens(profileName, env);
        throw new CliError(`the login of profile "${profileName}" has ended (revoked or expired): run vellum login`, EXIT.noPerm);
      }
      throw new CliError(`refreshing the login of profile "${profileName}" failed: ${tokens.error}`, EXIT.failure);
    }
    saveRotatedTokens(
      profileName,
      {
        accessToken: tokens.access_token,
        refreshToken: tokens.refresh_token,
        expiresAt: new Date(now() + tokens.expires_in * 1000).toISOString(),
      },
      env,
    );
    return tokens.access_token;
  });
}

interface TokenResponse {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

/** `POST <api>/auth/token grant_type=refresh_token` (form-encoded, RFC 6749 §6). */
async function requestRefresh(profile: StoredProfile): Promise<TokenResponse | { error: string }> {
  const url = `${profile.url.replace(/\/+$/, '')}/auth/token`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: profile.refreshToken!,
        client_id: profile.clientId!,
      }).toString(),
    });
  } catch (err) {
    throw new CliError(`cannot reach ${profile.url} (${networkCode(err) ?? (err as Error).message})`, EXIT.unavailable);
  }
  const body = (await res.json().catch(() => ({}))) as Partial<TokenResponse> & { error?: unknown };
  if (res.ok && typeof body.access_token === 'string' && typeof body.refresh_token === 'string' && typeof body.expires_in === 'number')
    return body as TokenResponse;
  return { error: typeof body.error === 'string' ? body.error : `HTTP ${res.status}` };
}

/** Runs `task` holding `<file>.lock` (created exclusively); a lock left by a dead process is broken after 30 s. */
async function withLock<T>(file: string, task: () => Promise<T>): Promise<T> {
  const lock = `${file}.lock`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx', 0o600));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST')
        throw new CliError(`cannot lock ${file}: ${(err as Error).message}`, EXIT.cantCreate);
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > STALE_LOCK_MS) rmSync(lock, { force: true });
      else if (Date.now() > deadline) throw new CliError(`${lock} is held by another vellum process: try again`, EXIT.unavailable);
      else await new Promise((r) => setTimeout(r, 50));
    }
  }
  try {
    return await task();
  } finally {
    rmSync(lock, { force: true });
  }
}
