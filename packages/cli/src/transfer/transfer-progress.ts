/** What an export or an import reports as it goes; the command turns it into a bar or plain lines. */
export type TransferEvent =
  | { kind: 'total'; what: 'media' | 'documents'; total: number }
  | { kind: 'media'; id: string; status: 'exported' | 'uploaded' | 'skipped' | 'failed'; bytes: number; error?: string }
  | {
      kind: 'document';
      type: string;
      id: string;
      status: 'exported' | 'created' | 'updated' | 'skipped' | 'deferred' | 'failed';
      error?: string;
    }
  /** A pending draft written to the target (or unchanged there), after its document. */
  | { kind: 'draft'; type: string; id: string; status: 'written' | 'skipped' | 'failed'; error?: string }
  /** A pending schedule: `past` when its time had passed at import, so it was not created. */
  | {
      kind: 'schedule';
      type: string;
      id: string;
      action: string;
      at: string;
      status: 'exported' | 'created' | 'skipped' | 'past' | 'failed';
      error?: string;
    };

export type OnProgress = (event: TransferEvent) => void;

interface Terminal {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

/**
 * Progress on stderr for `vellum export` and `vellum import`. On a terminal: one line redrawn at
 * most ten times a second (media and documents done of their totals when known), failures
 * printed above it. Elsewhere (CI logs, pipes): one plain line per media item and per document.
 */
export class TransferProgress {
  private readonly tty: boolean;
  private readonly done = { media: 0, documents: 0 };
  private readonly totals: { media?: number; documents?: number } = {};
  private failures = 0;
  private lastDraw = 0;

  constructor(private readonly out: Terminal = process.stderr) {
    this.tty = out.isTTY === true;
  }

  readonly onProgress: OnProgress = (e) => {
    if (e.kind === 'total') {
      this.totals[e.what] = (this.totals[e.what] ?? 0) + e.total;
      return;
    }
    if (e.kind === 'document' && e.status === 'deferred') return this.plain(`deferred ${e.type} ${e.id} (references written later)`);
    if (e.kind === 'draft' || e.kind === 'schedule') return this.workflow(e);
    if (e.kind === 'media') this.done.media++;
    else this.done.documents++;
    const name = e.kind === 'media' ? `media ${e.id}` : `${e.type} ${e.id}`;
    if (e.status === 'failed') {
      this.failures++;
      const line = `failed ${name}: ${e.error ?? 'unknown error'}`;
      if (this.tty) this.out.write(`\r\x1b[K${line}\n`);
      else this.out.write(`${line}\n`);
    } else {
      this.plain(`${e.status} ${name}`);
    }
    this.draw();
  };

  /** Drafts and schedules: a plain line each; a failure, or a schedule left out, also on a terminal. */
  private workflow(e: Extract<TransferEvent, { kind: 'draft' | 'schedule' }>): void {
    const name = e.kind === 'draft' ? `draft of ${e.type} ${e.id}` : `schedule ${e.action} ${e.type} ${e.id} at ${e.at}`;
    if (e.status === 'failed') this.failures++;
    const line =
      e.status === 'failed'
        ? `failed ${name}: ${e.error ?? 'unknown error'}`
        : e.status === 'past'
          ? `left out ${name}: its time has passed`
          : `${e.status} ${name}`;
    if (e.status === 'failed' || e.status === 'past') this.out.write(this.tty ? `\r\x1b[K${line}\n` : `${line}\n`);
    else this.plain(line);
  }

  /** Ends the bar's line on a terminal. */
  close(): void {
    if (!this.tty) return;
    this.draw(true);
    this.out.write('\n');
  }

  private plain(line: string): void {
    if (!this.tty) this.out.write(`${line}\n`);
  }

  private draw(force = false): void {
    if (!this.tty) return;
    const now = Date.now();
    if (!force && now - this.lastDraw < 100) return;
    this.lastDraw = now;
    const count = (what: 'media' | 'documents') =>
      this.totals[what] !== undefined ? `${this.done[what]}/${this.totals[what]}` : String(this.done[what]);
    const total = (this.totals.media ?? 0) + (this.totals.documents ?? 0);
    const share = total > 0 ? Math.min(1, (this.done.media + this.done.documents) / total) : 0;
    const width = 30;
    const filled = Math.round(share * width);
    const text = ` media ${count('media')}  documents ${count('documents')}${this.failures ? `  ${this.failures} failed` : ''}`;
    const columns = this.out.columns || 80;
    this.out.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]${text}`.slice(0, columns - 1) + '\x1b[K');
  }
}
