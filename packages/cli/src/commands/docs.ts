import { VellumApiError, type Document, type ListMeta, type VellumClient } from '@vellum/client/node';
import { CliError, EXIT, type Command, type CommandGroup, type Flags, type OptionDefs } from '../command.js';
import { readDocument } from '../input/read-document.js';
import { outputFormat, printDocument, printList } from '../output/print-documents.js';
import { connect, SERVER_OPTIONS } from '../profiles/resolve-connection.js';
import { checkDash, docPath, EXPAND, FORMAT, ifMatchOf, INPUT, perspectiveOf, PERSPECTIVE } from './docs-options.js';
import { workflowCommands } from './docs-workflow.js';

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
  const perspective = perspectiveOf(flags);
  if (perspective !== undefined) q.set('perspective', perspective);
  return q;
}

const DRAFT: OptionDefs = {
  draft: {
    type: 'boolean',
    help: "write a published document's pending draft (the live version is unchanged; write permission is enough)",
  },
  'if-match': {
    type: 'string',
    value: 'REV',
    help: "only if the document is still at this _rev (else 412); with --draft, d3 names the pending draft's revision",
  },
};

/**
 * `docs update` (PATCH, a merge patch) and `docs replace` (PUT, the whole document); with
 * `--draft`, `?draft=true`: the write goes to a published document's pending draft (docs/drafts.md).
 */
function writeCommand(method: 'PATCH' | 'PUT'): Command {
  const patch = method === 'PATCH';
  return {
    name: patch ? 'update' : 'replace',
    summary: patch
      ? 'Merge-patch a document (RFC 7396: null removes a field) and print it'
      : 'Replace a document with the JSON given (fields left out are removed) and print it',
    synopsis: '<type> <id> [-]',
    options: { ...SERVER_OPTIONS, ...FORMAT, ...INPUT, ...DRAFT },
    args: { min: 2, max: 3 },
    notes: patch
      ? `Example: vellum docs update post 0193… --data '{"_status":"archived"}' --if-match 3\n` +
        `         vellum docs update post 0193… --draft --data '{"title":"Next title"}'`
      : `Example: vellum docs replace post 0193… --file post.json --draft`,
    async run({ flags, args: [type, id, dash] }) {
      const format = outputFormat(flags);
      const draft = flags.boolean('draft');
      const ifMatch = ifMatchOf(flags, draft);
      const body = await readDocument(flags, checkDash(dash));
      const { client } = await connect(flags);
      printDocument(await writeDocument(client, method, docPath(type, id), body, draft, ifMatch), format);
      return EXIT.ok;
    },
  };
}

async function writeDocument(
  client: VellumClient,
  method: 'PATCH' | 'PUT',
  path: string,
  body: Record<string, unknown>,
  draft: boolean,
  ifMatch: string | undefined,
): Promise<Document> {
  const { data } = await client.transport.json<{ data: Document }>({
    method,
    path,
    query: draft ? { draft: 'true' } : undefined,
    json: body,
    headers: ifMatch === undefined ? undefined : { 'if-match': ifMatch },
  });
  return data;
}

/** `vellum docs …`: documents over the API, with the caller's token (docs/cli.md, "Documents"). */
export const docsCommand: CommandGroup = {
  name: 'docs',
  summary: 'Documents: list, read, create, update, replace and delete; drafts, publishing and schedules.',
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
        ...PERSPECTIVE,
      },
      args: { min: 1, max: 1 },
      notes: "Example: vellum docs list post --filter category=news --filter 'price[gte]=10' --order-by -_createdAt --limit 5",
      async run({ flags, args: [type] }) {
        const format = outputFormat(flags);
        const query = listQuery(flags).toString();
        const { client } = await connect(flags);
        printList(await client.request<{ data: Document[]; meta: ListMeta }>('GET', `${docPath(type)}${query ? `?${query}` : ''}`), format);
        return EXIT.ok;
      },
    },
    {
      name: 'get',
      summary: 'Print one document',
      synopsis: '<type> <id>',
      options: { ...SERVER_OPTIONS, ...FORMAT, ...EXPAND, ...PERSPECTIVE },
      args: { min: 2, max: 2 },
      notes: 'Example: vellum docs get post 0193… --perspective drafts (its pending draft, if it has one)',
      async run({ flags, args: [type, id] }) {
        const format = outputFormat(flags);
        const perspective = perspectiveOf(flags);
        const { client } = await connect(flags);
        printDocument((await client.documents(type).get(id, { expand: flags.string('expand'), perspective })) as Document, format);
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
        const format = outputFormat(flags);
        const body = await readDocument(flags, checkDash(dash));
        const { client } = await connect(flags);
        printDocument(await client.create(type, body), format);
        return EXIT.ok;
      },
    },
    writeCommand('PATCH'),
    writeCommand('PUT'),
    {
      name: 'delete',
      summary: 'Delete a document (refused while others reference it, unless --force)',
      synopsis: '<type> <id>',
      options: { ...SERVER_OPTIONS, force: { type: 'boolean', help: 'delete even while other documents reference it' } },
      args: { min: 2, max: 2 },
      async run({ flags, args: [type, id] }) {
        const { client } = await connect(flags);
        await client.delete(type, id, flags.boolean('force')).catch((err: unknown) => {
          throw referencedHint(err, type, id) ?? err;
        });
        process.stderr.write(`deleted ${type} ${id}\n`);
        return EXIT.ok;
      },
    },
    ...workflowCommands,
  ],
};

/**
 * The server's 409 for a document others reference, in the CLI's words: who references it, and
 * the flag that deletes it anyway (the server's own hint names its query parameter, `force=true`).
 */
function referencedHint(err: unknown, type: string, id: string): CliError | undefined {
  if (!(err instanceof VellumApiError) || err.status !== 409 || err.code !== 'CONFLICT' || !err.details?.length) return undefined;
  const who = err.details.map((d) => `${d.field}: ${d.message}`).join('; ');
  return new CliError(`409 CONFLICT: other documents reference ${type} ${id} (${who}); run again with --force to delete it anyway`);
}
