import type { OptionDefs } from '../command.js';

/**
 * The one machine-readable switch of every command that prints a result (docs/cli.md, "Output"):
 * `--json` puts one JSON value on stdout in place of the text; progress and messages stay on stderr.
 */
export const JSON_OPTION = (what: string): OptionDefs => ({ json: { type: 'boolean', help: `print ${what} as JSON on stdout` } });

/** Pretty-printed, one value, a newline at the end. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
