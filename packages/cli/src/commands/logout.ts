import { CLI_CLIENT_ID, VellumClient } from '@vellum/client/node';
import { CliError, EXIT, type Command } from '../command.js';
import { JSON_OPTION, printJson } from '../output/json-output.js';
import { reachingFetch } from '../describe-failure.js';
import { clearTokens, readCredentials } from '../profiles/credentials.js';

/**
 * `vellum logout`: revokes the profile's OAuth grant on the server (RFC 7009), so the tokens stop
 * working everywhere at once, then forgets them here (docs/cli.md, "Signing in"). An API token is
 * only forgotten: it belongs to whoever made it and is revoked with `DELETE /tokens/:id`.
 */
export const logoutCommand: Command = {
  name: 'logout',
  summary: "Sign out: revoke the profile's login on the server and forget its tokens",
  synopsis: '',
  options: {
    profile: { type: 'string', value: 'NAME', help: 'profile to sign out of (default: VELLUM_PROFILE, or the current one)' },
    ...JSON_OPTION('what was done ({url, profile, signedOut})'),
  },
  args: { min: 0, max: 0 },
  async run({ flags }) {
    const credentials = readCredentials();
    const name = flags.string('profile') ?? process.env.VELLUM_PROFILE ?? credentials.current;
    const profile = credentials.profiles[name];
    if (!profile?.accessToken) {
      if (flags.boolean('json')) printJson({ url: profile?.url ?? null, profile: name, signedOut: false });
      else process.stderr.write(`not signed in (profile ${name})\n`);
      return EXIT.ok;
    }
    if (profile.tokenType === 'oauth') {
      const client = new VellumClient({ baseUrl: profile.url, fetch: reachingFetch(profile.url) });
      try {
        await client.oauth.revokeToken(profile.refreshToken ?? profile.accessToken, { clientId: profile.clientId ?? CLI_CLIENT_ID });
      } catch (err) {
        if (!(err instanceof CliError && err.exitCode === EXIT.unavailable)) throw err;
        // Forget the tokens anyway; say that the server could not be told.
        clearTokens(name);
        throw new CliError(`${err.message}: the login is forgotten here but stays valid on the server until it expires`, EXIT.unavailable);
      }
    }
    clearTokens(name);
    if (flags.boolean('json')) printJson({ url: profile.url, profile: name, signedOut: true });
    else process.stdout.write(`Signed out of ${profile.url} (profile ${name})\n`);
    return EXIT.ok;
  },
};
