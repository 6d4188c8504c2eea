import type { Perspective } from '@vellum/client/node';
import { CliError, EXIT, type Flags, type OptionDefs } from '../command.js';

/** The options and helpers the `vellum docs` subcommands share (docs/cli.md, "Documents"). */

export const FORMAT: OptionDefs = {
  json: { type: 'boolean', help: 'print JSON (the same as --format json)' },
  format: {
    type: 'string',
    value: 'F',
    choices: ['table', 'json', 'ndjson'],
    help: 'table, json or ndjson (default: table on a terminal, json otherwise)',
  },
};
export const EXPAND: OptionDefs = {
  expand: { type: 'string', value: 'PATHS', help: 'comma-separated reference paths to expand (author,author.company)' },
};
export const PERSPECTIVE: OptionDefs = {
  perspective: {
    type: 'string',
    value: 'P',
    choices: ['published', 'drafts'],
    help: "published (published main versions only) or drafts (each document's pending draft where it has one)",
  },
};
export const INPUT: OptionDefs = {
  data: { type: 'string', value: 'JSON', help: 'the document as JSON' },
  file: { type: 'string', value: 'PATH', help: 'read the document from a JSON file (- for stdin)' },
};

export const docPath = (type: string, id?: string) =>
  `/documents/${encodeURIComponent(type)}${id === undefined ? '' : `/${encodeURIComponent(id)}`}`;

/** `--perspective`, checked before anything is sent (docs/drafts.md, "Reading"). */
export function perspectiveOf(flags: Flags): Perspective | undefined {
  const p = flags.string('perspective');
  if (p === undefined || p === 'published' || p === 'drafts') return p;
  throw new CliError(`--perspective must be published or drafts (got ${JSON.stringify(p)})`, EXIT.usage);
}

/**
 * `--if-match` of a write: a main version's `_rev` (`3`), or with `--draft` also a pending draft's
 * ETag (`d3`, docs/drafts.md "Revisions and ETags"). The header value, quoted, or undefined.
 */
export function ifMatchOf(flags: Flags, draft: boolean): string | undefined {
  if (!draft) {
    const rev = flags.count('if-match');
    return rev === undefined ? undefined : `"${rev}"`;
  }
  const v = flags.string('if-match');
  if (v === undefined) return undefined;
  if (!/^d?\d+$/.test(v)) throw new CliError('--if-match takes a _rev (3), or with --draft a draft revision (d3)', EXIT.usage);
  return `"${v}"`;
}

/** `-` as the last argument reads the document from stdin; anything else there is a usage error. */
export function checkDash(arg: string | undefined): boolean {
  if (arg === undefined) return false;
  if (arg !== '-') throw new CliError(`unexpected argument "${arg}" (- reads the document from stdin)`, EXIT.usage);
  return true;
}
