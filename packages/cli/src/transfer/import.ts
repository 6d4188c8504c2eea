import type { Readable } from 'node:stream';
import type { VellumClient } from '@vellum/client';
import { DocumentImporter } from './import-documents.js';
import { MediaImporter, message, type MediaOutcome } from './import-media.js';
import { readLines } from './read-lines.js';
import type { SchemaDef } from './schema-walk.js';
import { EXPORT_VERSION, type ExportCounts, type ExportLine, type HeaderLine } from './transfer-format.js';
import type { OnProgress } from './transfer-progress.js';

export interface ImportOptions {
  /**
   * For `reference` exports whose source serves files only to signed-in callers (`media.publicRead`
   * off): a client of the source, signed in. Without it files are read with no credential.
   */
  source?: VellumClient;
  onProgress?: OnProgress;
}

export interface ImportSummary {
  created: number;
  updated: number;
  skipped: number;
  failed: Array<{ id: string; type: string; error: string }>;
  media: { uploaded: number; skipped: number };
}

/** The file ended before its trailer (or was not well-formed there): what came before it was imported. */
export class IncompleteImportError extends Error {
  constructor(
    message: string,
    readonly summary: ImportSummary,
  ) {
    super(message);
    this.name = 'IncompleteImportError';
  }
}

/**
 * Reads an export (docs/cli-transfer.md) line by line and writes it to the target:
 * 1. the header: the format and version this reader knows;
 * 2. media: skipped when the id holds the same bytes, else uploaded with its `_id`;
 * 3. documents: skipped when equal, else created with their history or replaced;
 * 4. the trailer: its counts must match what was read;
 * 5. the versions held back for references to later documents.
 * A file without its trailer rejects with `IncompleteImportError` after steps 2–5 for every
 * complete item before the cut. Failures of single items are collected, not thrown.
 */
export async function importFrom(client: VellumClient, input: Readable, opts: ImportOptions = {}): Promise<ImportSummary> {
  const summary: ImportSummary = { created: 0, updated: 0, skipped: 0, failed: [], media: { uploaded: 0, skipped: 0 } };
  const media = new MediaImporter(client);
  let documents: DocumentImporter | undefined;
  let header: HeaderLine | undefined;
  const seen: ExportCounts = { media: 0, documents: 0, revisions: 0 };
  let problem: string | undefined = 'the file is empty';

  const mediaDone = (id: string, outcome: MediaOutcome, bytes: number) => {
    if (outcome.status === 'failed') summary.failed.push({ id, type: 'media', error: outcome.error });
    else summary.media[outcome.status]++;
    opts.onProgress?.({
      kind: 'media',
      id,
      status: outcome.status,
      bytes,
      ...(outcome.status === 'failed' ? { error: outcome.error } : {}),
    });
  };
  const documentFailed = (type: string, id: string, error: string) => {
    summary.failed.push({ id, type, error });
    opts.onProgress?.({ kind: 'document', type, id, status: 'failed', error });
  };

  try {
    for await (const { text, number, terminated } of readLines(input)) {
      if (text.trim() === '') continue;
      let line: ExportLine;
      try {
        line = JSON.parse(text) as ExportLine;
      } catch {
        problem = terminated ? `line ${number} is not JSON` : `the file ends in the middle of line ${number}`;
        break;
      }
      if (!header) {
        if (line.kind !== 'vellum-export') throw new Error('not a Vellum export (the first line is not its header)');
        if (line.version !== EXPORT_VERSION)
          throw new Error(`export format version ${line.version} is not supported (expected ${EXPORT_VERSION})`);
        header = line;
        problem = 'the file ends before its trailer (it was cut short)';
        const { data: schemas } = await client.request<{ data: SchemaDef[] }>('GET', '/config/schemas');
        documents = new DocumentImporter(client, schemas);
        continue;
      }
      if (line.kind === 'end') {
        const c = line.counts;
        if (c.media !== seen.media || c.documents !== seen.documents || c.revisions !== seen.revisions) {
          problem = `the trailer counts ${c.media} media and ${c.documents} documents, the file holds ${seen.media} and ${seen.documents}`;
        } else {
          problem = undefined;
        }
        break;
      }
      if (line.kind === 'media') {
        seen.media++;
        const record = line.record;
        if (header.media === 'reference') {
          mediaDone(record._id, await media.fromSource(record, header.source, opts.source), record.size);
        } else {
          const outcome = await media.begin(record).catch((err: unknown): MediaOutcome => ({ status: 'failed', error: message(err) }));
          // Already there (or failed): its data lines, if any, are passed over.
          if (outcome) mediaDone(record._id, outcome, record.size);
        }
      } else if (line.kind === 'media-data') {
        if (media.receiving(line.id)) {
          const id = line.id;
          await media.data(line.seq, line.data).catch(async (err: unknown) => {
            await media.drop();
            mediaDone(id, { status: 'failed', error: message(err) }, 0);
          });
        }
      } else if (line.kind === 'media-end') {
        if (media.receiving(line.id)) mediaDone(line.id, await media.end(), 0);
      } else if (line.kind === 'document') {
        seen.documents++;
        seen.revisions += line.revisions.length;
        try {
          const outcome = await documents!.write(line);
          if (outcome !== 'deferred') summary[outcome]++;
          opts.onProgress?.({ kind: 'document', type: line.type, id: line.document._id, status: outcome });
        } catch (err) {
          documentFailed(line.type, line.document._id, message(err));
        }
      }
    }
    await documents?.finish((type, id, error) => {
      if (error !== undefined) return documentFailed(type, id, error);
      summary.created++;
      opts.onProgress?.({ kind: 'document', type, id, status: 'created' });
    });
  } finally {
    await media.close();
  }
  if (problem) throw new IncompleteImportError(`Import incomplete: ${problem}`, summary);
  return summary;
}
