import type { FileJob, FileOutcome } from './upload-outcome.js';

const MB = 1_000_000;
const RATE_WINDOW_MS = 5000;

/**
 * Progress on stderr. On a terminal: one line redrawn ten times a second (a bar of all bytes,
 * files done, MB/s), with failures printed above it so they stay visible. Otherwise one line per
 * finished file, which reads well in CI logs. With --json, those plain lines are left to stdout's
 * JSON and only the terminal bar remains.
 */
export class ProgressDisplay {
  private readonly tty = process.stderr.isTTY === true;
  private readonly inFlight = new Map<FileJob, number>();
  private finishedBytes = 0;
  private filesDone = 0;
  private sentBytes = 0;
  private readonly samples: Array<{ at: number; sent: number }> = [];
  private readonly started = Date.now();
  private readonly timer?: NodeJS.Timeout;

  constructor(
    private readonly totalBytes: number,
    private readonly totalFiles: number,
    private readonly json: boolean,
  ) {
    if (this.tty) {
      this.timer = setInterval(() => this.draw(), 100);
      this.timer.unref();
    }
  }

  /** `sent` and `total` count the multipart body; the bar counts file bytes, so they are scaled. */
  progress(job: FileJob, sent: number, total: number): void {
    const before = this.inFlight.get(job) ?? 0;
    const now = total > 0 ? Math.round((job.size * sent) / total) : 0;
    this.inFlight.set(job, now);
    this.sentBytes += now - before;
  }

  /** `shared`: a failure the end of the run names once (a refused token, no server), not printed per file. */
  finished(outcome: FileOutcome, job?: FileJob, shared = false): void {
    if (job) {
      // Skipped and failed files count as done too, so the bar ends full.
      this.inFlight.delete(job);
      this.finishedBytes += job.size;
    }
    this.filesDone++;
    const line =
      outcome.status === 'uploaded'
        ? `uploaded ${outcome.file} → ${outcome.id}`
        : outcome.status === 'skipped'
          ? `skipped ${outcome.file} (already uploaded as ${outcome.id})`
          : `failed ${outcome.file}: ${outcome.error}`;
    if (shared) {
      if (this.tty) this.draw();
    } else if (this.tty) {
      if (outcome.status === 'failed') process.stderr.write(`\r\x1b[K${line}\n`);
      this.draw();
    } else if (!this.json) {
      process.stderr.write(`${line}\n`);
    }
  }

  close(): void {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.draw(true);
    process.stderr.write('\n');
  }

  private draw(final = false): void {
    let done = this.finishedBytes;
    for (const bytes of this.inFlight.values()) done += bytes;
    const share = this.totalBytes > 0 ? Math.min(1, done / this.totalBytes) : 1;
    const text = ` ${Math.floor(share * 100)}% ${(done / MB).toFixed(1)}/${(this.totalBytes / MB).toFixed(1)} MB  ${this.filesDone}/${this.totalFiles} files  ${(this.rate(final) / MB).toFixed(1)} MB/s`;
    const columns = process.stderr.columns || 80;
    // Sized from the terminal alone so the bar does not jump as the numbers grow; one column is
    // left free because writing the last one makes some terminals wrap.
    const width = Math.max(10, Math.min(40, columns - 60));
    const filled = Math.round(share * width);
    process.stderr.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]${text}`.slice(0, columns - 1) + '\x1b[K');
  }

  /** Bytes per second over the last few seconds; over the whole run for the final line. */
  private rate(overall: boolean): number {
    const now = Date.now();
    if (overall) return now > this.started ? (this.sentBytes * 1000) / (now - this.started) : 0;
    this.samples.push({ at: now, sent: this.sentBytes });
    while (this.samples.length > 1 && now - this.samples[0].at > RATE_WINDOW_MS) this.samples.shift();
    const first = this.samples[0];
    return now - first.at > 0 ? ((this.sentBytes - first.sent) * 1000) / (now - first.at) : 0;
  }
}
