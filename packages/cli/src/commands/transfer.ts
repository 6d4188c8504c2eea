import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { VellumClient } from '@vellum/client/node';
import { CliError, EXIT, type Command } from '../command.js';
import { reachingFetch } from '../describe-failure.js';
import { connect, SERVER_OPTIONS } from '../profiles/resolve-connection.js';
import { exportTo, UnknownTypesError } from '../transfer/export.js';
import { importFrom, IncompleteImportError, NotAnExportError, type ImportSummary } from '../transfer/import.js';
import { JSON_OPTION, printJson } from '../output/json-output.js';
import { MissingPermissionsError } from '../transfer/import-permissions.js';
import { exportSummaryText, importSummaryText } from '../transfer/summary-text.js';
import type { MediaMode } from '../transfer/transfer-format.js';
import { TransferProgress } from '../transfer/transfer-progress.js';

/** `vellum export`: the content of a server as NDJSON (docs/cli.md, "Export and import"). */
export const exportCommand: Command = {
  name: 'export',
  summary: 'Export documents (with their revisions and pending drafts), pending schedules and media as NDJSON',
  synopsis: '',
  options: {
    ...SERVER_OPTIONS,
    types: { type: 'string', value: 'A,B', help: 'only these types (default: all)' },
    out: { type: 'string', short: 'o', value: 'FILE', help: 'write to FILE instead of stdout' },
    media: {
      type: 'string',
      value: 'MODE',
      choices: ['include', 'reference'],
      help: 'include (the files, base64) or reference (records only) (default: include)',
    },
    ...JSON_OPTION('the summary (needs -o: the export itself goes to stdout otherwise)'),
  },
  args: { min: 0, max: 0 },
  notes:
    'Needs a token that reads every type, drafts, revisions and schedules included, and the media library.\n' +
    'Progress on stderr: a bar on a terminal, one line per item otherwise.\n' +
    'Example: vellum export --types author,post -o posts.ndjson',
  async run({ flags }) {
    const media = (flags.string('media') ?? 'include') as MediaMode;
    if (media !== 'include' && media !== 'reference') throw new CliError('--media must be include or reference', EXIT.usage);
    const types = flags
      .string('types')
      ?.split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    const file = flags.string('out');
    const json = flags.boolean('json');
    if (json && file === undefined)
      throw new CliError('--json needs -o FILE: without it the export itself is written to stdout', EXIT.usage);
    const { client } = await connect(flags);
    // Into FILE.partial, renamed when complete: FILE is never a cut-short export.
    const partial = file === undefined ? undefined : `${file}.partial`;
    const out: Writable = partial === undefined ? process.stdout : await openOutput(partial, file!);
    const progress = new TransferProgress();
    try {
      const counts = await exportTo(client, out, { types, media, onProgress: progress.onProgress });
      progress.close();
      if (partial !== undefined && file !== undefined) {
        out.end();
        await finished(out);
        await rename(partial, file);
      }
      if (json) printJson({ file, counts });
      else process.stderr.write(exportSummaryText(counts, file));
      return EXIT.ok;
    } catch (err) {
      progress.close();
      if (partial !== undefined) {
        out.destroy();
        await rm(partial, { force: true });
      }
      if (err instanceof UnknownTypesError) throw new CliError(err.message, EXIT.usage);
      throw err;
    }
  },
};

/** `vellum import`: an export into the server (docs/cli.md, "Export and import"). */
export const importCommand: Command = {
  name: 'import',
  summary: 'Import an export file (idempotent: run it again to resume, nothing is written twice)',
  synopsis: '<file | ->',
  options: {
    ...SERVER_OPTIONS,
    'source-token': {
      type: 'string',
      value: 'TOKEN',
      help: 'token for the source server, for a --media reference export of private files',
    },
    ...JSON_OPTION('the summary'),
  },
  args: { min: 1, max: 1 },
  notes:
    'Needs read, write and publish on every type it holds documents of, and media:read and media:upload\n' +
    'when it holds media: checked before anything is written (exit 77 naming what is missing).\n' +
    'Pending schedules whose time has passed are left out and named. Prints a summary;\n' +
    'exit 1 when an item failed or the file was cut short (what came before the cut is imported).\n' +
    'Example: vellum import posts.ndjson',
  async run({ flags, args }) {
    const { client, connection } = await connect(flags);
    if (!connection.token) throw new CliError('no token: sign in with vellum login, or pass --token (import writes)', EXIT.noPerm);
    const input = await openInput(args[0]!);
    const sourceToken = flags.string('source-token');
    const source = sourceToken
      ? (url: string) => new VellumClient({ baseUrl: url, token: sourceToken, fetch: reachingFetch(url) })
      : undefined;
    const progress = new TransferProgress();
    const report = (summary: ImportSummary, incomplete?: string) =>
      flags.boolean('json')
        ? printJson({ complete: incomplete === undefined, ...summary, ...(incomplete ? { incomplete } : {}) })
        : process.stdout.write(importSummaryText(summary));
    try {
      const summary = await importFrom(client, input, { source, onProgress: progress.onProgress });
      progress.close();
      report(summary);
      return summary.failed.length > 0 ? EXIT.failure : EXIT.ok;
    } catch (err) {
      progress.close();
      if (err instanceof IncompleteImportError) {
        report(err.summary, err.message);
        throw new CliError(err.message, EXIT.failure);
      }
      if (err instanceof NotAnExportError) throw new CliError(`${args[0]}: ${err.message}`, EXIT.dataErr);
      if (err instanceof MissingPermissionsError) throw new CliError(err.message, EXIT.noPerm);
      throw err;
    } finally {
      input.destroy();
    }
  },
};

/** The output file, opened before anything is read from the server (exit 73 when it cannot be). */
async function openOutput(path: string, named: string): Promise<Writable> {
  const stream = createWriteStream(path);
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', (err) => reject(new CliError(`cannot write ${named}: ${err.message}`, EXIT.cantCreate)));
  });
  return stream;
}

/** The file, or stdin for `-`; a file that cannot be opened is exit 66 before anything is sent. */
async function openInput(path: string): Promise<Readable> {
  if (path === '-') return process.stdin;
  const stream = createReadStream(path);
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', (err) => reject(new CliError(`cannot read ${path}: ${err.message}`, EXIT.noInput)));
  });
  return stream;
}
