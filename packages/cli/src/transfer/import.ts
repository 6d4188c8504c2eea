import type { Readable } from 'node:stream';
import type { Media, Schedule, VellumClient } from '@vellum/client/node';
import { fetchTypeSchemas } from '../json-schema/type-schemas.js';
import { DocumentImporter } from './import-documents.js';
import { errorText, isItemFailure } from './error-text.js';
import { MediaImporter, type MediaOutcome } from './import-media.js';
import { MissingPermissionsError, missingPermissions, missingPermissionsText } from './import-permissions.js';
import { emptyWorkflowSummary, WorkflowImporter, type WorkflowSummary } from './import-workflow.js';
import { readLines } from './read-lines.js';
import {
  ALL_LOCALES,
  READABLE_VERSIONS,
  type DocumentLine,
  type ExportCounts,
  type ExportLine,
  type HeaderLine,
} from './transfer-format.js';
import type { OnProgress } from './transfer-progress.js';

export interface ImportOptions {
  /**
   * For `reference` exports whose source serves files only to signed-in callers (`media.publicRead`
   * off): a signed-in client of the source, given its URL from the header. Without it files are
   * read with no credential.
   */
  source?: (sourceUrl: string) => VellumClient;
  onProgress?: OnProgress;
}

export interface ImportSummary extends WorkflowSummary {
  created: number;
  updated: number;
  skipped: number;
  failed: Array<{ id: string; type: string; error: string }>;
  media: { uploaded: number; skipped: number };
  /** Earlier versions the target's schemas refused, left out of the histories (docs/cli.md, "Export and import"). */
  versionsLeftOut: number;
}

/** The first line is not the header of an export this version reads: nothing was imported. */
export class NotAnExportError extends Error {}

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
 * Reads an export (docs/cli.md, "Export and import") line by line and writes it to the target:
 * 1. the header: the format and version this reader knows, for a localized file (version 3)
 *    locales the target has, and the permissions the file needs (import-permissions.ts) held by
 *    the credential (anything else: nothing is imported);
 * 2. media: skipped when the id holds the same bytes, else uploaded with its `_id`;
 * 3. documents: skipped when equal, else created with their history or replaced; then each one's
 *    pending draft (version 2);
 * 4. schedules (version 2): pending ones created again, unless their time has passed;
 * 5. the trailer: its counts must match what was read;
 * 6. the versions held back for references to later documents, then the drafts held back.
 * A file without its trailer rejects with `IncompleteImportError` after steps 2 to 5 for every
 * complete item before the cut. Failures of single items are collected in the summary, not thrown.
 */
export async function importFrom(client: VellumClient, input: Readable, opts: ImportOptions = {}): Promise<ImportSummary> {
  const run = new ImportRun(client, opts);
  try {
    for await (const { text, number, terminated } of readLines(input)) {
      if (text.trim() === '') continue;
      let line: ExportLine;
      try {
        line = JSON.parse(text) as ExportLine;
      } catch {
        run.problem = terminated ? `line ${number} is not JSON` : `the file ends in the middle of line ${number}`;
        break;
      }
      if (!(await run.take(line))) break;
    }
    await run.finish();
  } finally {
    await run.close();
  }
  if (run.problem) throw new IncompleteImportError(`Import incomplete: ${run.problem}`, run.summary);
  return run.summary;
}

/** One import's state: the header read, what was seen (checked against the trailer), the summary. */
class ImportRun {
  readonly summary: ImportSummary = {
    created: 0,
    updated: 0,
    skipped: 0,
    failed: [],
    media: { uploaded: 0, skipped: 0 },
    versionsLeftOut: 0,
    ...emptyWorkflowSummary(),
  };
  /** Why the file is not complete; cleared by a trailer that matches. */
  problem: string | undefined = 'the file is empty';
  private header?: HeaderLine;
  private sourceClient?: VellumClient;
  private documents?: DocumentImporter;
  private readonly media: MediaImporter;
  private readonly workflow: WorkflowImporter;
  private readonly seen: Required<ExportCounts> = { media: 0, documents: 0, revisions: 0, drafts: 0, schedules: 0 };
  /** Documents that failed: a draft held back for one is not written. */
  private readonly failedDocuments = new Set<string>();

  constructor(
    private readonly client: VellumClient,
    private readonly opts: ImportOptions,
  ) {
    this.media = new MediaImporter(client);
    this.workflow = new WorkflowImporter(client, this.summary, opts.onProgress, (type, id, error) =>
      this.summary.failed.push({ id, type, error }),
    );
  }

  /** One line; false once the trailer is read. Lines of a kind this version does not know are passed over. */
  async take(line: ExportLine): Promise<boolean> {
    if (!this.header) {
      await this.start(line);
      return true;
    }
    if (line.kind !== 'media-data' && line.kind !== 'media-end') await this.endOfBytes();
    switch (line.kind) {
      case 'media':
        await this.mediaRecord(line.record);
        break;
      case 'media-data':
        if (this.media.receiving(line.id)) {
          await this.media.data(line.seq, line.data).catch(async (err: unknown) => {
            await this.media.drop();
            if (!isItemFailure(err)) throw err;
            this.mediaDone(line.id, { status: 'failed', error: errorText(err) }, 0);
          });
        }
        break;
      case 'media-end':
        if (this.media.receiving(line.id)) this.mediaDone(line.id, await this.media.end(), 0);
        break;
      case 'document':
        await this.document(line);
        break;
      case 'schedule':
        await this.schedule(line.schedule);
        break;
      case 'end':
        this.trailer(line.counts);
        return false;
      case 'vellum-export':
        // Only the first line is the header; another is passed over like an unknown kind.
        break;
    }
    return true;
  }

  /** The versions held back, once everything else is in. */
  async finish(): Promise<void> {
    await this.documents?.finish((type, id, error) => {
      if (error !== undefined) return this.documentFailed(type, id, error);
      this.summary.created++;
      this.opts.onProgress?.({ kind: 'document', type, id, status: 'created' });
    });
    this.summary.versionsLeftOut = this.documents?.versionsLeftOut ?? 0;
    await this.workflow.finishDrafts((type, id) => this.failedDocuments.has(`${type}\u0000${id}`));
  }

  async close(): Promise<void> {
    await this.endOfBytes();
    await this.media.close();
  }

  /** A file whose bytes stopped before its `media-end` (another line came, or the file ended) is not uploaded. */
  private async endOfBytes(): Promise<void> {
    const id = this.media.pending;
    if (id === undefined) return;
    await this.media.drop();
    this.mediaDone(id, { status: 'failed', error: 'its bytes end before media-end: not uploaded' }, 0);
  }

  private async start(line: ExportLine): Promise<void> {
    if (line.kind !== 'vellum-export') throw new NotAnExportError('not a Vellum export (the first line is not its header)');
    if (!READABLE_VERSIONS.includes(line.version))
      throw new NotAnExportError(`export format version ${line.version} is not supported (expected ${versionList(READABLE_VERSIONS)})`);
    const locale = line.locales ? await this.localesKnown(line.locales) : undefined;
    const missing = missingPermissions(line, await this.client.auth.validate());
    if (missing.length > 0) throw new MissingPermissionsError(missingPermissionsText(missing));
    if (line.contents) {
      this.opts.onProgress?.({ kind: 'total', what: 'media', total: line.contents.media });
      const documents = Object.values(line.contents.documents).reduce((a, b) => a + b, 0);
      this.opts.onProgress?.({ kind: 'total', what: 'documents', total: documents });
    }
    this.header = line;
    this.sourceClient = this.opts.source?.(line.source);
    this.problem = 'the file ends before its trailer (it was cut short)';
    this.documents = new DocumentImporter(this.client, await fetchTypeSchemas(this.client), locale);
    this.workflow.locale = locale;
  }

  /**
   * A localized export (version 3) is written with `locale=*` (docs/localization.md): the target
   * must know each of its locales, or nothing is imported. A file without locales goes into a
   * localized target's default locale, as any write without `locale` does.
   */
  private async localesKnown(codes: readonly string[]): Promise<string> {
    const target = await this.client.config.locales();
    const known = new Set((target?.list ?? []).map((l) => l.code.toLowerCase()));
    const missing = codes.filter((c) => !known.has(c.toLowerCase()));
    if (missing.length > 0)
      throw new NotAnExportError(
        target
          ? `the file holds content in locale${missing.length > 1 ? 's' : ''} the target does not have: ${missing.join(', ')}`
          : `the file holds content in locales (${codes.join(', ')}); the target has none configured`,
      );
    return ALL_LOCALES;
  }

  private async mediaRecord(record: Media): Promise<void> {
    this.seen.media++;
    if (this.header!.media === 'reference') {
      this.mediaDone(record._id, await this.media.fromSource(record, this.header!.source, this.sourceClient), record.size);
      return;
    }
    const outcome = await this.media.begin(record).catch((err: unknown): MediaOutcome => {
      if (!isItemFailure(err)) throw err;
      return { status: 'failed', error: errorText(err) };
    });
    // Already there (or failed): its data lines are passed over.
    if (outcome) this.mediaDone(record._id, outcome, record.size);
  }

  private async document(line: DocumentLine): Promise<void> {
    this.seen.documents++;
    this.seen.revisions += line.revisions.length;
    if (line.draft) this.seen.drafts++;
    let outcome;
    try {
      outcome = await this.documents!.write(line);
      if (outcome !== 'deferred') this.summary[outcome]++;
      this.opts.onProgress?.({ kind: 'document', type: line.type, id: line.document._id, status: outcome });
    } catch (err) {
      if (!isItemFailure(err)) throw err;
      this.documentFailed(line.type, line.document._id, errorText(err));
      return;
    }
    // The draft goes on the main version just written; it waits while that or what it references is not there yet.
    if (line.draft) {
      const ready = outcome !== 'deferred' && (await this.documents!.referencesPresent(line.type, line.draft.data));
      await this.workflow.draft(line.type, line.document._id, line.draft, ready);
    }
  }

  private async schedule(schedule: Schedule): Promise<void> {
    this.seen.schedules++;
    await this.workflow.schedule(schedule);
  }

  /** A version 1 trailer has no `drafts` or `schedules`: its file holds none. */
  private trailer(c: ExportCounts): void {
    const { seen } = this;
    const drafts = c.drafts ?? 0;
    const schedules = c.schedules ?? 0;
    if (c.media !== seen.media || c.documents !== seen.documents || c.revisions !== seen.revisions)
      this.problem = `the trailer counts ${c.media} media and ${c.documents} documents, the file holds ${seen.media} and ${seen.documents}`;
    else if (drafts !== seen.drafts || schedules !== seen.schedules)
      this.problem = `the trailer counts ${drafts} drafts and ${schedules} schedules, the file holds ${seen.drafts} and ${seen.schedules}`;
    else this.problem = undefined;
  }

  private mediaDone(id: string, outcome: MediaOutcome, bytes: number): void {
    if (outcome.status === 'failed') this.summary.failed.push({ id, type: 'media', error: outcome.error });
    else this.summary.media[outcome.status]++;
    const error = outcome.status === 'failed' ? { error: outcome.error } : {};
    this.opts.onProgress?.({ kind: 'media', id, status: outcome.status, bytes, ...error });
  }

  private documentFailed(type: string, id: string, error: string): void {
    this.failedDocuments.add(`${type}\u0000${id}`);
    this.summary.failed.push({ id, type, error });
    this.opts.onProgress?.({ kind: 'document', type, id, status: 'failed', error });
  }
}

/** `1, 2 or 3`. */
const versionList = (versions: readonly number[]) => `${versions.slice(0, -1).join(', ')} or ${versions[versions.length - 1]}`;
