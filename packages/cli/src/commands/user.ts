import { ROLES } from '@vellum/server/roles';
import { CliError, EXIT, type CommandGroup, type Flags } from '../command.js';
import { readSecret, readStdin } from '../input/read-stdin.js';
import { JSON_OPTION, printJson } from '../output/json-output.js';
import { loadServerConfig } from '../server-config.js';
import { CONFIG_OPTIONS } from './serve.js';

const PASSWORD_STDIN = {
  'password-stdin': { type: 'boolean', help: 'read the password from stdin (its first line); without it a terminal asks for it' },
} as const;

/**
 * The new password: from stdin with --password-stdin, else asked for without echo on a terminal.
 * Never a flag value: it would land in the shell history and in `ps`.
 */
async function password(flags: Flags): Promise<string> {
  if (flags.boolean('password-stdin')) {
    const line = (await readStdin()).split(/\r?\n/)[0];
    if (!line) throw new CliError('--password-stdin: stdin has no password', EXIT.usage);
    return line;
  }
  if (!process.stdin.isTTY) throw new CliError('give the password on stdin with --password-stdin (or run this on a terminal)', EXIT.usage);
  const first = await readSecret('Password: ');
  if ((await readSecret('Again: ')) !== first) throw new CliError('the passwords differ', EXIT.usage);
  return first;
}

/** `a, b or c`: the server's own list, so the help never names a role it does not have. */
const orList = (items: readonly string[]) => `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;

/** `vellum user …`: accounts on the configured database, for operators (docs/cli.md, "Users"). */
export const userCommand: CommandGroup = {
  name: 'user',
  summary: 'Accounts, directly on the configured database (no server or token needed).',
  subcommands: [
    {
      name: 'create',
      summary: 'Create a user with a password (the password policy applies)',
      synopsis: '--username NAME --email ADDRESS',
      options: {
        ...CONFIG_OPTIONS,
        username: { type: 'string', value: 'NAME', help: 'user name (required)' },
        email: { type: 'string', value: 'ADDRESS', help: 'email address (required)' },
        role: { type: 'string', value: 'ROLE', choices: ROLES, help: `${orList(ROLES)} (default editor)` },
        'first-name': { type: 'string', value: 'TEXT', help: 'first name' },
        'last-name': { type: 'string', value: 'TEXT', help: 'last name' },
        ...PASSWORD_STDIN,
        ...JSON_OPTION('the user made ({id, username, role})'),
      },
      args: { min: 0, max: 0 },
      notes:
        'Example: printf "%s\\n" "$PASSWORD" | vellum user create --username ada --email ada@example.com --role admin --password-stdin',
      async run({ flags }) {
        const username = flags.string('username');
        const email = flags.string('email');
        if (!username || !email) throw new CliError('user create needs --username and --email (see vellum user create --help)', EXIT.usage);
        const config = await loadServerConfig(flags.string('config'));
        const secret = await password(flags);
        const { createUserOnDatabase } = await import('@vellum/server');
        const user = await createUserOnDatabase(config, {
          username,
          email,
          role: flags.string('role') ?? 'editor',
          password: secret,
          firstName: flags.string('first-name'),
          lastName: flags.string('last-name'),
        });
        if (flags.boolean('json')) printJson(user);
        else process.stdout.write(`created user ${user.username} (${user.role}, id ${user.id})\n`);
        return EXIT.ok;
      },
    },
    {
      name: 'set-password',
      summary: "Set a user's password; ends its sessions, open reset links and trusted devices",
      synopsis: '<username>',
      options: { ...CONFIG_OPTIONS, ...PASSWORD_STDIN },
      args: { min: 1, max: 1 },
      notes: 'Example: printf "%s\\n" "$PASSWORD" | vellum user set-password ada --password-stdin',
      async run({ flags, args: [username] }) {
        const config = await loadServerConfig(flags.string('config'));
        const secret = await password(flags);
        const { setPasswordOnDatabase } = await import('@vellum/server');
        await setPasswordOnDatabase(config, username, secret);
        process.stdout.write(`password of ${username} set; its sessions have ended\n`);
        return EXIT.ok;
      },
    },
  ],
};
