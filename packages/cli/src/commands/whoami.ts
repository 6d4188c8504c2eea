import { EXIT, CliError, type Command } from '../command.js';
import { JSON_OPTION } from '../output/json-output.js';
import { connect, SERVER_OPTIONS } from '../profiles/resolve-connection.js';

/** `vellum whoami`: who the stored login (or the given token) acts as, on which server (docs/cli.md, "Signing in"). */
export const whoamiCommand: Command = {
  name: 'whoami',
  summary: 'Show the user (or API token) the current login acts as',
  synopsis: '',
  options: { ...SERVER_OPTIONS, ...JSON_OPTION('the server’s answer (POST /auth/validate)') },
  args: { min: 0, max: 0 },
  async run({ flags }) {
    const { client, connection } = await connect(flags);
    if (connection.tokenSource === 'none')
      throw new CliError(`not signed in (profile ${connection.profileName}): run vellum login`, EXIT.noPerm);
    const v = await client.auth.validate();
    if (flags.boolean('json')) {
      process.stdout.write(`${JSON.stringify(v, null, 2)}\n`);
      return EXIT.ok;
    }
    const who =
      v.kind === 'token'
        ? `API token ${v.token?.name ?? ''}`.trim()
        : `${v.user?.username} (${v.user?.role})${v.kind === 'oauth' ? `, scopes: ${v.oauth?.scopes.join(' ') || 'none'}` : ''}`;
    process.stdout.write(`${who} at ${connection.url}\n`);
    return EXIT.ok;
  },
};
