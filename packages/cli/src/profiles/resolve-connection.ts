import { VellumClient } from '@vellum/client/node';
import { CliError, EXIT, type Flags, type OptionDefs } from '../command.js';
import { reachingFetch } from '../describe-failure.js';
import { readCredentials, type Env, type StoredProfile } from './credentials.js';
import { freshOAuthToken } from './refresh-oauth.js';

export const DEFAULT_URL = 'http://localhost:3000/api';

/** The flags of every command that calls a server. */
export const SERVER_OPTIONS: OptionDefs = {
  url: { type: 'string', value: 'URL', help: `API base URL (default: VELLUM_URL, the profile's, or ${DEFAULT_URL})` },
  token: { type: 'string', value: 'TOKEN', help: "API token vlm_… (default: VELLUM_TOKEN, or the profile's)" },
  profile: { type: 'string', value: 'NAME', help: 'profile to use (default: VELLUM_PROFILE, or the current one)' },
};

export interface Connection {
  url: string;
  token?: string;
  /** Where the token came from: an OAuth token from the profile may need a refresh first. */
  tokenSource: 'flag' | 'env' | 'profile' | 'none';
  /** The profile in use, when one is stored under that name. */
  profileName: string;
  profile?: StoredProfile;
}

/**
 * Where to send requests and with which token: flags over environment over the profile
 * (docs/cli.md, "Profiles"), so scripts run with --url/--token (or VELLUM_URL/VELLUM_TOKEN)
 * and no stored profile at all. Naming a profile that does not exist is an error; the current
 * profile missing (no file yet) is not.
 */
export function resolveConnection(flags: Flags, env: Env = process.env): Connection {
  const named = flags.string('profile') ?? env.VELLUM_PROFILE;
  const credentials = readCredentials(env);
  const profileName = named ?? credentials.current;
  const profile = credentials.profiles[profileName];
  if (named !== undefined && !profile) throw new CliError(`no profile "${named}" (see vellum config list)`, EXIT.usage);
  const url = flags.string('url') ?? env.VELLUM_URL ?? profile?.url ?? DEFAULT_URL;
  const flag = flags.string('token');
  if (flag) return { url, token: flag, tokenSource: 'flag', profileName, profile };
  if (env.VELLUM_TOKEN) return { url, token: env.VELLUM_TOKEN, tokenSource: 'env', profileName, profile };
  if (profile?.accessToken) return { url, token: profile.accessToken, tokenSource: 'profile', profileName, profile };
  return { url, tokenSource: 'none', profileName, profile };
}

/** The connection with a usable token: an expired OAuth login is refreshed (and stored) first. */
export async function resolveFreshConnection(flags: Flags, env: Env = process.env): Promise<Connection> {
  const connection = resolveConnection(flags, env);
  if (connection.tokenSource !== 'profile' || connection.profile?.tokenType !== 'oauth') return connection;
  return { ...connection, token: await freshOAuthToken(connection.profileName, env) };
}

/** A client for the connection whose unreachable server is a one-line error (exit 69). */
export async function connect(flags: Flags, env: Env = process.env): Promise<{ client: VellumClient; connection: Connection }> {
  const connection = await resolveFreshConnection(flags, env);
  return {
    client: new VellumClient({ baseUrl: connection.url, token: connection.token, fetch: reachingFetch(connection.url) }),
    connection,
  };
}
