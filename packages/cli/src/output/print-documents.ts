import { CliError, EXIT, type Flags } from '../command.js';
import { formatTable } from './format-table.js';
import { tableWidth } from './table-width.js';

export type OutputFormat = 'table' | 'json' | 'ndjson';

type Doc = Record<string, unknown>;

/** At most this many schema fields follow `_id`, `_status` and `_rev` in a list table. */
const FIELD_COLUMNS = 4;

/**
 * `--json` or `--format`, or the default: a table for a person at a terminal, JSON for a pipe or
 * a file (docs/cli.md, "Output").
 */
export function outputFormat(flags: Flags): OutputFormat {
  const flag = flags.string('format');
  if (flags.boolean('json')) {
    if (flag !== undefined && flag !== 'json') throw new CliError(`--json and --format ${flag} ask for two outputs: give one`, EXIT.usage);
    return 'json';
  }
  if (flag === undefined) return process.stdout.isTTY ? 'table' : 'json';
  if (flag === 'table' || flag === 'json' || flag === 'ndjson') return flag;
  throw new CliError(`--format must be table, json or ndjson (got ${JSON.stringify(flag)})`, EXIT.usage);
}

/** A list: json is the API's body `{data, meta}`, ndjson one document per line, table one row per document. */
export function printList(body: { data: Doc[]; meta: { total: number; limit: number; offset: number } }, format: OutputFormat): void {
  if (format === 'json') return write(`${JSON.stringify(body, null, 2)}\n`);
  if (format === 'ndjson') return write(body.data.map((d) => `${JSON.stringify(d)}\n`).join(''));
  const fields = scalarFields(body.data);
  const headers = ['_id', '_status', '_rev', ...fields];
  const rows = body.data.map((d) => headers.map((h) => cellText(d[h])));
  const { total, offset } = body.meta;
  const shown = body.data.length === 0 ? `0 of ${total}` : `${offset + 1}–${offset + body.data.length} of ${total}`;
  write(`${formatTable(headers, rows, tableWidth())}(${shown})\n`);
}

/** One document: json pretty-printed, ndjson one line, table one row per top-level field. */
export function printDocument(doc: Doc, format: OutputFormat): void {
  if (format === 'json') return write(`${JSON.stringify(doc, null, 2)}\n`);
  if (format === 'ndjson') return write(`${JSON.stringify(doc)}\n`);
  const rows = Object.entries(doc).map(([k, v]) => [k, isScalar(v) ? cellText(v) : JSON.stringify(v)]);
  write(formatTable(['field', 'value'], rows, tableWidth()));
}

/** The first few top-level fields holding only scalars (or slugs) in every document, in order of appearance. */
function scalarFields(docs: Doc[]): string[] {
  const seen: string[] = [];
  const rejected = new Set<string>();
  for (const doc of docs)
    for (const [key, value] of Object.entries(doc)) {
      if (key.startsWith('_') || value === null || value === undefined) continue;
      if (!isScalar(value)) rejected.add(key);
      else if (!seen.includes(key)) seen.push(key);
    }
  return seen.filter((k) => !rejected.has(k)).slice(0, FIELD_COLUMNS);
}

const isSlug = (v: unknown): v is { current: string } =>
  typeof v === 'object' && v !== null && Object.keys(v).length === 1 && typeof (v as { current?: unknown }).current === 'string';

function isScalar(v: unknown): boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || isSlug(v);
}

function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (isSlug(v)) return v.current;
  return String(v).replace(/\s+/g, ' ');
}

function write(text: string): void {
  process.stdout.write(text);
}
