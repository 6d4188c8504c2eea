/**
 * What a `vellum` command declares: its options (parsed with node:util parseArgs, strict), how
 * many arguments it takes, and its help text. The dispatcher (`run-cli.ts`) answers `--help`,
 * refuses unknown flags and wrong argument counts with exit 64, and turns thrown errors into one
 * line on stderr (docs/cli.md, "Exit codes").
 */

/** sysexits.h codes the CLI uses (docs/cli.md, "Exit codes"). */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 64,
  dataErr: 65,
  noInput: 66,
  unavailable: 69,
  cantCreate: 73,
  noPerm: 77,
  config: 78,
} as const;

export interface OptionDef {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
  /** The value's placeholder in the help (`--limit N`). */
  value?: string;
  /** The values it takes, when they are a few: shell completion offers them. */
  choices?: readonly string[];
  help: string;
}

export type OptionDefs = Record<string, OptionDef>;

/** Parsed flags with typed accessors (parseArgs hands back a loosely typed record). */
export class Flags {
  constructor(private readonly values: Record<string, string | boolean | Array<string | boolean> | undefined>) {}

  string(name: string): string | undefined {
    const v = this.values[name];
    return typeof v === 'string' ? v : undefined;
  }

  boolean(name: string): boolean {
    return this.values[name] === true;
  }

  list(name: string): string[] {
    const v = this.values[name];
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : [];
  }

  /** A whole number ≥ 0, or undefined when the flag is absent; anything else is a usage error. */
  count(name: string): number | undefined {
    const v = this.string(name);
    if (v === undefined) return undefined;
    if (!/^\d+$/.test(v)) throw new CliError(`--${name} must be a whole number ≥ 0`, EXIT.usage);
    return Number(v);
  }
}

export interface CommandInput {
  flags: Flags;
  args: string[];
}

export interface Command {
  /** The word after the group (`list`), or the top-level word (`serve`). */
  name: string;
  /** One line for the listing. */
  summary: string;
  /** The argument synopsis after the command words (`<type> [id]`). */
  synopsis: string;
  options: OptionDefs;
  /** How many positional arguments it takes; `max: Infinity` for lists of files. */
  args: { min: number; max: number };
  /** Paragraphs after the options in `--help`: defaults, exit codes, an example. */
  notes?: string;
  run(input: CommandInput): Promise<number>;
}

export interface CommandGroup {
  name: string;
  summary: string;
  subcommands: Command[];
}

/** A failure the user can act on: printed as `vellum: <message>`, exiting with `exitCode`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failure,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
