import { CliError, EXIT, type CommandGroup } from '../command.js';
import { readSecret } from '../input/read-stdin.js';
import { JSON_OPTION, printJson } from '../output/json-output.js';
import { checkProfileName, credentialsPath, readCredentials, saveProfile, updateCredentials } from '../profiles/credentials.js';
import { DEFAULT_URL } from '../profiles/resolve-connection.js';

const PROFILE_OPTION = {
  profile: { type: 'string', value: 'NAME', help: 'the profile to change (default: VELLUM_PROFILE, or the current one)' },
} as const;

/** The profile a `config` command changes: --profile, VELLUM_PROFILE, else the current one. */
function targetProfile(flag: string | undefined): string {
  return checkProfileName(flag ?? process.env.VELLUM_PROFILE ?? readCredentials().current);
}

/** Accepts an absolute http(s) URL, without a trailing slash. */
function checkUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError(`not a URL: ${JSON.stringify(url)} (for example ${DEFAULT_URL})`, EXIT.usage);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new CliError(`the URL must be http or https: ${url}`, EXIT.usage);
  return url.replace(/\/+$/, '');
}

/** `vellum config …`: the stored profiles (docs/cli.md, "Profiles"). Tokens are never printed. */
export const configCommand: CommandGroup = {
  name: 'config',
  summary: 'Profiles: which server and which credentials the other commands use.',
  subcommands: [
    {
      name: 'list',
      summary: 'List the profiles: name, URL, credential kind and user; * marks the current one',
      synopsis: '',
      options: { ...JSON_OPTION('the profiles ([{name, url, current, credential, user}])') },
      args: { min: 0, max: 0 },
      notes: 'Tokens are never printed. The file: $VELLUM_CONFIG_DIR, $XDG_CONFIG_HOME/vellum or ~/.config/vellum, credentials.json.',
      async run({ flags }) {
        const { current, profiles } = readCredentials();
        const names = Object.keys(profiles).sort();
        const credentialOf = (p: (typeof profiles)[string]) => (p.accessToken ? (p.tokenType === 'oauth' ? 'login' : 'api token') : 'none');
        if (flags.boolean('json')) {
          printJson(
            names.map((name) => ({
              name,
              url: profiles[name].url,
              current: name === current,
              credential: credentialOf(profiles[name]),
              user: profiles[name].user?.username ?? null,
            })),
          );
          return EXIT.ok;
        }
        if (names.length === 0) {
          process.stderr.write(`no profiles yet (${credentialsPath()}): vellum config set-url URL\n`);
          return EXIT.ok;
        }
        const width = Math.max(...names.map((n) => n.length));
        for (const name of names) {
          const p = profiles[name];
          const credential = credentialOf(p) === 'none' ? 'no credentials' : credentialOf(p);
          const who = p.user ? ` as ${p.user.username}` : '';
          process.stdout.write(`${name === current ? '*' : ' '} ${name.padEnd(width)}  ${p.url}  ${credential}${who}\n`);
        }
        return EXIT.ok;
      },
    },
    {
      name: 'use',
      summary: 'Make a stored profile the current one',
      synopsis: '<name>',
      options: {},
      args: { min: 1, max: 1 },
      async run({ args: [name] }) {
        checkProfileName(name);
        updateCredentials((c) => {
          if (!c.profiles[name]) throw new CliError(`no profile "${name}" (see vellum config list)`, EXIT.usage);
          c.current = name;
        });
        process.stdout.write(`using profile ${name}\n`);
        return EXIT.ok;
      },
    },
    {
      name: 'set-url',
      summary: "Set a profile's API base URL, creating the profile",
      synopsis: '<url>',
      options: PROFILE_OPTION,
      args: { min: 1, max: 1 },
      notes: `Example: vellum config set-url https://cms.example.com/api --profile prod`,
      async run({ flags, args: [url] }) {
        const name = targetProfile(flags.string('profile'));
        saveProfile(name, { url: checkUrl(url) });
        process.stdout.write(`profile ${name}: ${checkUrl(url)}\n`);
        return EXIT.ok;
      },
    },
    {
      name: 'set-token',
      summary: 'Store an API token (vlm_…) in a profile, read from stdin',
      synopsis: '',
      options: PROFILE_OPTION,
      args: { min: 0, max: 0 },
      notes:
        'The token is read from stdin (its first line), or asked for without echo on a terminal: never a flag value,\n' +
        'which would land in the shell history. Example: printenv VELLUM_TOKEN | vellum config set-token --profile prod',
      async run({ flags }) {
        const name = targetProfile(flags.string('profile'));
        const token = (await readSecret('API token: ')).trim();
        if (!token.startsWith('vlm_')) throw new CliError('an API token starts with vlm_', EXIT.usage);
        const existing = readCredentials().profiles[name];
        saveProfile(name, {
          url: existing?.url ?? DEFAULT_URL,
          accessToken: token,
          tokenType: 'api',
          refreshToken: undefined,
          expiresAt: undefined,
          clientId: undefined,
          user: undefined,
        });
        process.stdout.write(`profile ${name}: API token stored\n`);
        return EXIT.ok;
      },
    },
  ],
};
