import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ALL_COMMANDS } from './commands/all-commands.js';
import { CliError, EXIT, Flags, type Command, type CommandGroup, type OptionDefs } from './command.js';
import { describeFailure } from './describe-failure.js';

/** The CLI package's version, read next to the running file (dist/ or src/) so it never drifts. */
function version(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

const isGroup = (c: Command | CommandGroup): c is CommandGroup => 'subcommands' in c;
const wantsHelp = (args: string[]) => {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h');
};

/**
 * `vellum <command> [subcommand] …`: finds the command, answers `--help`, parses its flags
 * strictly and runs it. Returns the exit code; every failure has been printed as one line
 * `vellum: …` on stderr by then.
 */
export async function runCli(argv: string[]): Promise<number> {
  try {
    return await dispatch(argv);
  } catch (err) {
    const { line, exitCode } = describeFailure(err);
    process.stderr.write(`vellum: ${line}\n`);
    return exitCode;
  }
}

async function dispatch(argv: string[]): Promise<number> {
  const [word, ...rest] = argv;
  // Asked for, help is the answer (stdout, 0); `vellum` alone is a usage error, as a group without
  // its command is (sysexits EX_USAGE, docs/cli.md): the usage goes to stderr, where scripts look.
  if (word === undefined) {
    process.stderr.write(topHelp());
    return EXIT.usage;
  }
  if (word === 'help' || word === '--help' || word === '-h') {
    process.stdout.write(topHelp());
    return EXIT.ok;
  }
  if (word === '--version' || word === '-v') {
    process.stdout.write(`${version()}\n`);
    return EXIT.ok;
  }
  const entry = ALL_COMMANDS.find((c) => c.name === word);
  if (!entry) throw new CliError(`unknown command "${word}" (see vellum --help)`, EXIT.usage);
  if (!isGroup(entry)) return runCommand(entry, [word], rest);
  const [sub, ...subArgs] = rest;
  if (sub === '--help' || sub === '-h' || sub === 'help') {
    process.stdout.write(groupHelp(entry));
    return EXIT.ok;
  }
  const names = entry.subcommands.map((c) => c.name).join(', ');
  if (sub === undefined) throw new CliError(`${word} needs a command: ${names} (see vellum ${word} --help)`, EXIT.usage);
  const command = entry.subcommands.find((c) => c.name === sub);
  if (!command) throw new CliError(`unknown ${word} command "${sub}": expected ${names} (see vellum ${word} --help)`, EXIT.usage);
  return runCommand(command, [word, sub], subArgs);
}

async function runCommand(command: Command, words: string[], args: string[]): Promise<number> {
  const path = `vellum ${words.join(' ')}`;
  if (wantsHelp(args)) {
    process.stdout.write(commandHelp(command, words));
    return EXIT.ok;
  }
  let parsed;
  try {
    parsed = parseArgs({ args: attachDashValues(args, command.options), options: command.options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new CliError(`${parseProblem(err)} (see ${path} --help)`, EXIT.usage);
  }
  const { positionals } = parsed;
  if (positionals.length < command.args.min)
    throw new CliError(`${words.join(' ')}: missing argument: ${command.synopsis} (see ${path} --help)`, EXIT.usage);
  if (positionals.length > command.args.max)
    throw new CliError(`${words.join(' ')}: unexpected argument "${positionals[command.args.max]}" (see ${path} --help)`, EXIT.usage);
  return command.run({ flags: new Flags(parsed.values), args: positionals });
}

/**
 * A string option takes the next argument as its value even when it starts with "-", as getopt
 * does (`--order-by -price`); parseArgs alone would refuse it as ambiguous.
 */
function attachDashValues(args: string[], options: OptionDefs): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') return [...out, ...args.slice(i)];
    const name = arg.startsWith('--') ? arg.slice(2) : Object.keys(options).find((k) => arg === `-${options[k].short ?? '\0'}`);
    const next = args[i + 1];
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && next.startsWith('-') && next !== '--') {
      out.push(`--${name}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** parseArgs' messages, shortened to what the user typed wrong. */
function parseProblem(err: unknown): string {
  const message = (err as Error).message;
  const unknown = /Unknown option '([^']+)'/.exec(message);
  if (unknown) return `unknown option ${unknown[1]}`;
  return message.split('. ')[0];
}

function topHelp(): string {
  const rows: Array<[string, string]> = [];
  for (const c of ALL_COMMANDS) {
    if (isGroup(c)) for (const s of c.subcommands) rows.push([`${c.name} ${s.name}`, s.summary]);
    else rows.push([c.name, c.summary]);
  }
  rows.push(['--help, -h', 'help for any command (vellum docs list --help)'], ['--version, -v', 'print the version']);
  return (
    `Usage: vellum <command> [options]\n\nCommands:\n${columns(rows)}` +
    `\nCommands that call a server take --url, --token and --profile (docs/cli.md).\n`
  );
}

function groupHelp(group: CommandGroup): string {
  const rows = group.subcommands.map((s): [string, string] => [s.name, s.summary]);
  return `Usage: vellum ${group.name} <command> [options]\n\n${group.summary}\n\nCommands:\n${columns(rows)}\nRun \`vellum ${group.name} <command> --help\` for its options.\n`;
}

function commandHelp(command: Command, words: string[]): string {
  const synopsis = [command.synopsis, Object.keys(command.options).length > 0 ? '[options]' : ''].filter(Boolean).join(' ');
  let out = `Usage: vellum ${words.join(' ')}${synopsis ? ` ${synopsis}` : ''}\n\n${command.summary}\n`;
  const options = optionRows(command.options);
  if (options.length > 0) out += `\nOptions:\n${columns(options)}`;
  if (command.notes) out += `\n${command.notes.trimEnd()}\n`;
  return out;
}

function optionRows(options: OptionDefs): Array<[string, string]> {
  return Object.entries(options).map(([name, o]) => [
    `--${name}${o.short ? `, -${o.short}` : ''}${o.type === 'string' ? ` ${o.value ?? 'VALUE'}` : ''}`,
    `${o.help}${o.multiple ? ' (repeatable)' : ''}`,
  ]);
}

function columns(rows: Array<[string, string]>): string {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}\n`).join('');
}
