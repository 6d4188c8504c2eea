import type { BackupProgress } from '@vellum/server';

interface Terminal {
  isTTY?: boolean;
  write(text: string): unknown;
}

/**
 * Progress of `vellum backup` and `vellum restore` on stderr. On a terminal: one line redrawn at
 * most ten times a second (the table and its rows done of the total, then the files). Elsewhere
 * (CI logs, pipes): one line per table and one for the files when they are done.
 */
export class BackupProgressLine {
  private readonly tty: boolean;
  private last = 0;
  private shown = '';
  private table?: { name: string; done: number; total: number };
  private files?: { done: number; total: number };

  constructor(
    private readonly verb: string,
    private readonly out: Terminal = process.stderr,
  ) {
    this.tty = Boolean(out.isTTY);
  }

  readonly onProgress = (p: BackupProgress): void => {
    if (p.phase === 'rows') {
      if (this.table && this.table.name !== p.table) this.endTable();
      this.table = { name: p.table, done: p.done, total: p.total };
    } else {
      if (this.table) this.endTable();
      this.files = { done: p.done, total: p.total };
    }
    if (!this.tty) return;
    const now = Date.now();
    if (now - this.last < 100) return;
    this.last = now;
    this.redraw(
      this.table ? `${this.verb} ${this.table.name}: ${this.table.done}/${this.table.total}` : `${this.verb} files: ${p.done}/${p.total}`,
    );
  };

  close(): void {
    if (this.table) this.endTable();
    if (this.files) {
      this.line(`${this.verb} files: ${this.files.done}/${this.files.total}`);
      this.files = undefined;
    }
    if (this.tty && this.shown) this.out.write('\r\x1b[K');
    this.shown = '';
  }

  private endTable(): void {
    const t = this.table!;
    this.table = undefined;
    this.line(`${this.verb} ${t.name}: ${t.done} rows`);
  }

  private line(text: string): void {
    if (this.tty) this.out.write('\r\x1b[K');
    this.out.write(`${text}\n`);
    this.shown = '';
  }

  private redraw(text: string): void {
    this.out.write(`\r\x1b[K${text}`);
    this.shown = text;
  }
}
