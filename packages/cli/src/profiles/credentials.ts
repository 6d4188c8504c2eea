import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CliError, EXIT } from '../command.js';

/**
 * The profiles file, `credentials.json` in the CLI's config folder (docs/cli.md, "Profiles"):
 * `$VELLUM_CONFIG_DIR`, else `$XDG_CONFIG_HOME/vellum`, else `~/.config/vellum`. It holds
 * tokens, so the folder is 0700 and the file 0600, and every write replaces the file atomically
 * (temp file, fsync, rename): a crash leaves the old file or the new one, never half of one.
 */
export interface StoredProfile {
  /** The API base URL, `http://localhost:3000/api`. */
  url: string;
  accessToken?: string;
  /** OAuth only: rotated on every refresh (saveRotatedTokens). */
  refreshToken?: string;
  /** ISO 8601: when the access token stops working (OAuth); absent for API tokens. */
  expiresAt?: string;
  /** The OAuth client the tokens were issued to (`service-cli`). */
  clientId?: string;
  /** Present with `accessToken`: `oauth` (from `vellum login`) or `api` (a `vlm_…` API token). */
  tokenType?: 'oauth' | 'api';
  user?: { id: string; username: string };
}

export interface Credentials {
  current: string;
  profiles: Record<string, StoredProfile>;
}

export type Env = Record<string, string | undefined>;

export const DEFAULT_PROFILE = 'default';
const PROFILE_NAME = /^[A-Za-z0-9._-]{1,64}$/;

export function configDir(env: Env = process.env): string {
  if (env.VELLUM_CONFIG_DIR) return env.VELLUM_CONFIG_DIR;
  return join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'vellum');
}

export function credentialsPath(env: Env = process.env): string {
  return join(configDir(env), 'credentials.json');
}

export function checkProfileName(name: string): string {
  if (!PROFILE_NAME.test(name))
    throw new CliError(`profile names are 1–64 letters, digits, ".", "_" or "-" (got ${JSON.stringify(name)})`, EXIT.usage);
  return name;
}

/** The stored profiles; an absent file is no profiles yet. */
export function readCredentials(env: Env = process.env): Credentials {
  const path = credentialsPath(env);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { current: DEFAULT_PROFILE, profiles: {} };
    throw new CliError(`cannot read ${path}: ${(err as Error).message}`, EXIT.noInput);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CliError(`${path} is not valid JSON: fix or delete it`, EXIT.config);
  }
  const c = parsed as Partial<Credentials> | null;
  if (!c || typeof c !== 'object' || typeof c.profiles !== 'object' || c.profiles === null || Array.isArray(c.profiles))
    throw new CliError(`${path} has no "profiles" object: fix or delete it`, EXIT.config);
  return { current: typeof c.current === 'string' ? c.current : DEFAULT_PROFILE, profiles: c.profiles };
}

/** Replaces the file atomically with mode 0600, creating the folder with mode 0700. */
export function writeCredentials(credentials: Credentials, env: Env = process.env): void {
  const path = credentialsPath(env);
  const dir = dirname(path);
  try {
    if (mkdirSync(dir, { recursive: true, mode: 0o700 }) !== undefined) chmodSync(dir, 0o700);
    const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    const fd = openSync(tmp, 'wx', 0o600);
    try {
      writeSync(fd, `${JSON.stringify(credentials, null, 2)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      renameSync(tmp, path);
    } catch (err) {
      rmSync(tmp, { force: true });
      throw err;
    }
  } catch (err) {
    throw new CliError(`cannot write ${path}: ${(err as Error).message}`, EXIT.cantCreate);
  }
}

/** Read, change, write: `change` edits the credentials in place. */
export function updateCredentials(change: (c: Credentials) => void, env: Env = process.env): Credentials {
  const credentials = readCredentials(env);
  change(credentials);
  writeCredentials(credentials, env);
  return credentials;
}

/** Creates the profile or merges `fields` into it (`vellum config set-url`, `vellum login`). */
export function saveProfile(name: string, fields: Partial<StoredProfile> & { url?: string }, env: Env = process.env): StoredProfile {
  checkProfileName(name);
  let saved: StoredProfile | undefined;
  updateCredentials((c) => {
    const before = c.profiles[name];
    const url = fields.url ?? before?.url;
    if (!url) throw new CliError(`profile "${name}" has no URL yet: vellum config set-url URL --profile ${name}`, EXIT.usage);
    saved = { ...before, ...fields, url };
    c.profiles[name] = saved;
    // The first profile stored becomes the current one.
    if (!c.profiles[c.current]) c.current = name;
  }, env);
  return saved!;
}

/**
 * The tokens of a refresh (OAuth rotation: the old refresh token is spent, so the new pair must
 * be stored before anything else happens). The rest of the profile is kept.
 */
export function saveRotatedTokens(
  name: string,
  tokens: { accessToken: string; refreshToken: string; expiresAt: string },
  env: Env = process.env,
): void {
  updateCredentials((c) => {
    const profile = c.profiles[name];
    if (!profile) throw new CliError(`no profile "${name}"`, EXIT.usage);
    c.profiles[name] = { ...profile, ...tokens, tokenType: 'oauth' };
  }, env);
}

/** Forgets the tokens and the user of a profile, keeping its URL (`vellum logout`). */
export function clearTokens(name: string, env: Env = process.env): void {
  updateCredentials((c) => {
    const profile = c.profiles[name];
    if (profile) c.profiles[name] = { url: profile.url };
  }, env);
}
