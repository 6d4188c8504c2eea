import type { Schedule, VellumClient } from '@vellum/client/node';
import { errorText, isItemFailure } from './error-text.js';
import { isNotFound } from './is-not-found.js';
import { jsonEqual } from './import-documents.js';
import { fieldsOf, type PendingDraft } from './transfer-format.js';
import type { OnProgress } from './transfer-progress.js';
import { whenNotLimited } from './when-not-limited.js';

/** What the drafts and schedules of an import came to (docs/cli.md, "Export and import"). */
export interface WorkflowSummary {
  drafts: { written: number; skipped: number };
  schedules: { created: number; skipped: number };
  /** Pending schedules whose `at` had passed when the import ran: not created. */
  schedulesLeftOut: Array<{ type: string; id: string; action: string; at: string }>;
}

export const emptyWorkflowSummary = (): WorkflowSummary => ({
  drafts: { written: 0, skipped: 0 },
  schedules: { created: 0, skipped: 0 },
  schedulesLeftOut: [],
});

interface HeldDraft {
  type: string;
  id: string;
  draft: PendingDraft;
}

/**
 * The editorial half of an import (version 2 files):
 * - a pending draft is written with `PUT …?draft=true` once its document's main version is in
 *   (docs/drafts.md, "Writing a draft"); one that references a document not there yet, or whose
 *   document was held back, waits for `finishDrafts()`. A target draft with the same fields is
 *   left as it is; a target's own draft the file does not mention is never discarded.
 * - a pending schedule is created again (`POST …/schedule`), as the importer, unless the target
 *   has a pending one with the same action and instant (so a second run creates none); one whose
 *   `at` has passed is left out and reported, never run late: a publish at a time nobody chose.
 */
export class WorkflowImporter {
  private readonly held: HeldDraft[] = [];
  /** `*` once the header names content locales: drafts are read and written with every locale. */
  locale: string | undefined;

  constructor(
    private readonly client: VellumClient,
    readonly summary: WorkflowSummary,
    private readonly onProgress: OnProgress | undefined,
    private readonly failed: (type: string, id: string, error: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Writes the draft now, or holds it for `finishDrafts` when `ready` is false. */
  async draft(type: string, id: string, draft: PendingDraft, ready: boolean): Promise<void> {
    if (!ready) {
      this.held.push({ type, id, draft });
      return;
    }
    await this.writeDraft({ type, id, draft });
  }

  /** The drafts held back, once every document's versions are in; `skip` names documents that failed. */
  async finishDrafts(skip: (type: string, id: string) => boolean): Promise<void> {
    for (const d of this.held.splice(0)) if (!skip(d.type, d.id)) await this.writeDraft(d);
  }

  async schedule(s: Schedule): Promise<void> {
    const event = { kind: 'schedule', type: s.type, id: s.documentId, action: s.action, at: s.at } as const;
    if (Date.parse(s.at) <= this.now()) return this.leftOut(s);
    try {
      const docs = this.client.documents(s.type);
      const pending = await whenNotLimited(() => docs.schedules(s.documentId, { status: 'pending' }));
      if (pending.some((p) => p.action === s.action && Date.parse(p.at) === Date.parse(s.at))) {
        this.summary.schedules.skipped++;
        this.onProgress?.({ ...event, status: 'skipped' });
        return;
      }
      await whenNotLimited(() => docs.schedule(s.documentId, { action: s.action, at: s.at }));
      this.summary.schedules.created++;
      this.onProgress?.({ ...event, status: 'created' });
    } catch (err) {
      if (!isItemFailure(err)) throw err;
      // Its time passed between the check and the request: the server's 422 on `at`.
      if (fieldOf(err) === 'at' && Date.parse(s.at) <= this.now()) return this.leftOut(s);
      const error = `schedule ${s.action} at ${s.at}: ${errorText(err)}`;
      this.failed(s.type, s.documentId, error);
      this.onProgress?.({ ...event, status: 'failed', error });
    }
  }

  private leftOut(s: Schedule): void {
    this.summary.schedulesLeftOut.push({ type: s.type, id: s.documentId, action: s.action, at: s.at });
    this.onProgress?.({ kind: 'schedule', type: s.type, id: s.documentId, action: s.action, at: s.at, status: 'past' });
  }

  private async writeDraft({ type, id, draft }: HeldDraft): Promise<void> {
    try {
      const current = await this.servedDraft(type, id);
      if (current && jsonEqual(fieldsOf(current), draft.data)) {
        this.summary.drafts.skipped++;
        this.onProgress?.({ kind: 'draft', type, id, status: 'skipped' });
        return;
      }
      const path = `/documents/${encodeURIComponent(type)}/${encodeURIComponent(id)}`;
      const query = { draft: 'true', ...(this.locale === undefined ? {} : { locale: this.locale }) };
      await whenNotLimited(() => this.client.transport.json({ method: 'PUT', path, query, json: draft.data }));
      this.summary.drafts.written++;
      this.onProgress?.({ kind: 'draft', type, id, status: 'written' });
    } catch (err) {
      if (!isItemFailure(err)) throw err;
      const error = `draft: ${errorText(err)}`;
      this.failed(type, id, error);
      this.onProgress?.({ kind: 'draft', type, id, status: 'failed', error });
    }
  }

  /** The target's pending draft of the document, if it has one. */
  private async servedDraft(type: string, id: string): Promise<Record<string, unknown> | undefined> {
    try {
      const doc = await whenNotLimited(() => this.client.documents(type).get(id, { perspective: 'drafts', locale: this.locale }));
      return doc._version === 'draft' ? doc : undefined;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }
}

const fieldOf = (err: unknown) => (err as { details?: Array<{ field?: string }> }).details?.[0]?.field;
