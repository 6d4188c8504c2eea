import type { Document, ListMeta } from '@vellum/client/node';
import { CliError, EXIT, type CommandGroup, type Flags, type OptionDefs } from '../command.js';
import { readDocument } from '../input/read-document.js';
import { outputFormat, printDocument, printList } from '../output/print-documents.js';
import { connect, SERVER_OPTIONS } from '../profiles/resolve-connection.js';

const FORMAT: OptionDefs = {
  format: { type: 'string', value: 'F', help: 'table, json or ndjson (default: table on a terminal, json otherwise)' },
};
const EXPAND: OptionDefs = {
  expand: { type: 'string', value: 'PATHS', help: 'comma-separated reference paths to expand (author,author.company)' },
};
const INPUT: OptionDefs = {
  data: { type: 'string', value: 'JSON', help: 'the document as JSON' },
  file: { type: 'string', value: 'PATH', help: 'read the document from a JSON file (- for stdin)' },
};

const FILTER = /^([A-Za-z_][A-Za-z0-9_.]*)(?:\[([A-Za-z]+)\])?=([\s\S]*)$/;

/**
 * The query string of `docs list` (docs/api.md, "List queries"): `--filter field=value` →
 * `filter[field]=value`, `--filter 'field[op]=value'` → `filter[field][op]=value`;
 * `--order-by -field` sorts descending, `--order-by field` ascending.
 */
export function listQuery(flags: Flags): URLSearchParams {
  const q = new URLSearchParams();
  for (const f of flags.list('filter')) {
    const m = FILTER.exec(f);
    if (!m) throw new CliError(`--filter takes field=value or field[op]=value (got ${JSON.stringify(f)})`, EXIT.usage);
    q.append(m[2] ? `filter[${m[1]}][${m[2]}]` : `filter[${m[1]}]`, m[3]);
  }
  const orderBy = flags.string('order-by');
  if (orderBy !== undefined) {
    const descending = orderBy.startsWith('-');
    q.set('orderBy', descending ? orderBy.slice(1) : orderBy);
    q.set('order', descending ? 'desc' : 'asc');
  }
  for (const key of ['limit', 'offset'] as const) {
    const n = flags.count(key);
    if (n !== undefined) q.set(key, String(n));
  }
  for (const [flag, param] of [
    ['expand', 'expand'],
    ['search', 'search'],
    ['fields', 'fields'],
  ] as const) {
    const v = flags.string(flag);
    if (v !== undefined) q.set(param, v);
  }
  return q;
}

const path = (type: string, id?: string) => `/documents/${encodeURIComponent(type)}${id === undefined ? '' : `/${encodeURIComponent(id)}`}`;

/** `vellum docs …`: documents over the API, with the caller's token (docs/cli.md, "Documents"). */
export const docsCommand: CommandGroup = {
  name: 'docs',
  summary: 'Documents: list, read, create, update (merge patch) and delete.',
  subcommands: [
    {
      name: 'list',
      summary: 'List documents of a type, filtered, ordered and paged',
      synopsis: '<type>',
      options: {
        ...SERVER_OPTIONS,
        ...FORMAT,
        filter: {
          type: 'string',
          multiple: true,
          value: 'F',
          help: 'field=value or field[op]=value (op: eq ne gt gte lt lte in nin contains startsWith exists)',
        },
        'order-by': { type: 'string', value: 'FIELD', help: 'order by a field, descending with a leading - (-_createdAt is the default)' },
        limit: { type: 'string', value: 'N', help: 'page size (server default 20, at most 100)' },
        offset: { type: 'string', value: 'N', help: 'documents to skip' },
        search: { type: 'string', value: 'WORDS', help: 'full-text search; the last word matches as a prefix' },
        fields: { type: 'string', value: 'NAMES', help: 'comma-separated top-level fields to return' },
        ...EXPAND,
      },
      args: { min: 1, max: 1 },
      notes: "Example: vellum docs list post --filter category=news --filter 'price[gte]=10' --order-by -_createdAt --limit 5",
      async run({ flags, args: [type] }) {
        const format = outputFormat(flags.string('format'));
        const query = listQuery(flags).toString();
        const { client } = await connect(flags);
        printList(await client.request<{ data: Document[]; meta: ListMeta }>('GET', `${path(type)}${query ? `?${query}` : ''}`), format);
        return EXIT.ok;
      },
    },
    {
      name: 'get',
      summary: 'Print one document',
      synopsis: '<type> <id>',
      options: { ...SERVER_OPTIONS, ...FORMAT, ...EXPAND },
      args: { min: 2, max: 2 },
      async run({ flags, args: [type, id] }) {
        const format = outputFormat(flags.string('format'));
        const { client } = await connect(flags);
        printDocument(await client.get(type, id, flags.string('expand')), format);
        return EXIT.ok;
      },
    },
    {
      name: 'create',
      summary: 'Create a document from JSON (--data, --file, or - for stdin) and print it',
      synopsis: '<type> [-]',
      options: { ...SERVER_OPTIONS, ...FORMAT, ...INPUT },
      args: { min: 1, max: 2 },
      notes: `Example: vellum docs create post --data '{"title":"Hello","_status":"published"}'`,
      async run({ flags, args: [type, dash] }) {
        const format = outputFormat(flags.string('format'));
        const body = await readDocument(flags, checkDash(dash));
        const { client } = await connect(flags);
        printDocument(await client.create(type, body), format);
        return EXIT.ok;
      },
    },
    {
      name: 'update',
      summary: 'Merge-patch a document (RFC 7396: null removes a field) and print it',
      synopsis: '<type> <id> [-]',
      options: {
        ...SERVER_OPTIONS,
        ...FORMAT,
        ...INPUT,
        'if-match': { type: 'string', value: 'REV', help: 'only if the document is still at this _rev (else 412)' },
      },
      args: { min: 2, max: 3 },
      notes: `Example: vellum docs update post 0193… --data '{"_status":"archived"}' --if-match 3`,
      async run({ flags, args: [type, id, dash] }) {
        const format = outputFormat(flags.string('format'));
        const ifMatch = flags.count('if-match');
        const body = await readDocument(flags, checkDash(dash));
        const { client } = await connect(flags);
        printDocument(await client.patch(type, id, body, ifMatch), format);
        return EXIT.ok;
      },
    },
    {
      name: 'delete',
      summary: 'Delete a document (refused while others reference it, unless --force)',
      synopsis: '<type> <id>',
      options: { ...SERVER_OPTIONS, force: { type: 'boolean', help: 'delete even while other documents reference it' } },
      args: { min: 2, max: 2 },
      async run({ flags, args: [type, id] }) {
        const { client } = await connect(flags);
        await client.delete(type, id, flags.boolean('force'));
        process.stderr.write(`deleted ${type} ${id}\n`);
        return EXIT.ok;
      },
    },
  ],
};

function checkDash(arg: string | undefined): boolean {
  if (arg === undefined) return false;
  if (arg !== '-') throw new CliError(`unexpected argument "${arg}" (- reads the document from stdin)`, EXIT.usage);
  return true;
}
