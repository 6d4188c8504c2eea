import { spawn } from 'node:child_process';
import { CLI_CLIENT_ID, VellumApiError, VellumClient } from '@vellum/client/node';
import { JSON_OPTION, printJson } from '../output/json-output.js';
import { CliError, EXIT, type Command } from '../command.js';
import { reachingFetch } from '../describe-failure.js';
import { readCredentials, saveProfile } from '../profiles/credentials.js';
import { DEFAULT_URL } from '../profiles/resolve-connection.js';
import { discoverApiUrl } from '../profiles/discover-api-url.js';

/**
 * `vellum login [url]`: the device flow (RFC 8628) with the built-in public client `service-cli`
 * (docs/cli.md, "Signing in"). It prints the code and the address, opens the browser where it can,
 * polls as the server asks (`interval`, 5 s more after each `slow_down`) and stores the tokens in
 * the profile; later commands refresh them when they expire.
 */
export const loginCommand: Command = {
  name: 'login',
  summary: 'Sign in through the browser (OAuth 2.0 device flow) and store the login in a profile',
  synopsis: '[url]',
  options: {
    profile: { type: 'string', value: 'NAME', help: 'profile to store the login in (default: VELLUM_PROFILE, or the current one)' },
    scope: { type: 'string', value: 'SCOPES', help: 'space-separated scopes to ask for (default: every scope)' },
    'no-browser': { type: 'boolean', help: 'print the address only; do not try to open a browser' },
    ...JSON_OPTION('the login ({url, profile, user, scopes}; never the tokens)'),
  },
  args: { min: 0, max: 1 },
  notes: `url is the server (https://cms.example.com) or its API (…/api); default: VELLUM_URL, the profile's, or ${DEFAULT_URL}.
Example: vellum login https://cms.example.com --profile prod`,
  async run({ flags, args }) {
    const credentials = readCredentials();
    const name = flags.string('profile') ?? process.env.VELLUM_PROFILE ?? credentials.current;
    const given = args[0] ?? process.env.VELLUM_URL ?? credentials.profiles[name]?.url ?? DEFAULT_URL;
    // 1. Find the API behind the address the user typed (the metadata names the token endpoint).
    const url = await discoverApiUrl(given);
    const client = new VellumClient({ baseUrl: url, fetch: reachingFetch(url) });
    // 2. Ask for a code and show it.
    const auth = await client.oauth.startDeviceAuthorization({ clientId: CLI_CLIENT_ID, scope: flags.string('scope') });
    process.stderr.write(
      `To sign in, open ${auth.verification_uri} and enter the code ${auth.user_code}\n` +
        (auth.verification_uri_complete ? `(or open ${auth.verification_uri_complete})\n` : '') +
        `Waiting for approval (the code works for ${Math.round(auth.expires_in / 60)} minutes)…\n`,
    );
    if (!flags.boolean('no-browser')) openBrowser(auth.verification_uri_complete ?? auth.verification_uri);
    // 3. Poll until the user decides.
    let tokens;
    try {
      tokens = await client.oauth.pollDeviceToken(auth, { clientId: CLI_CLIENT_ID });
    } catch (err) {
      if (err instanceof VellumApiError && err.code === 'access_denied') throw new CliError('the sign-in was denied', EXIT.noPerm);
      if (err instanceof VellumApiError && err.code === 'expired_token')
        throw new CliError('the code expired before it was approved: run vellum login again', EXIT.noPerm);
      throw err;
    }
    // 4. Store the login with the user it belongs to.
    const me = await client.auth.me();
    saveProfile(name, {
      url,
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      expiresAt: tokens.expiresAt,
      clientId: CLI_CLIENT_ID,
      tokenType: 'oauth',
      user: { id: me.id, username: me.username },
    });
    if (flags.boolean('json'))
      printJson({
        url,
        profile: name,
        user: { id: me.id, username: me.username, role: me.role },
        scopes: tokens.scope?.split(' ').filter(Boolean) ?? [],
      });
    else
      process.stdout.write(`Signed in to ${url} as ${me.username} (profile ${name}${tokens.scope ? `, scopes: ${tokens.scope}` : ''})\n`);
    return EXIT.ok;
  },
};

/**
 * Opens the address in the user's browser on a desktop; never in CI or without a terminal,
 * where nobody would see it. Failing to open one is fine: the address is printed.
 */
function openBrowser(address: string): void {
  if (!process.stderr.isTTY || process.env.CI) return;
  const [cmd, ...args] =
    process.platform === 'darwin'
      ? ['open', address]
      : process.platform === 'win32'
        ? ['cmd', '/c', 'start', '""', address]
        : ['xdg-open', address];
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No opener on this machine: the printed address is enough.
  }
}
