import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { VellumApiError, VellumClient } from '@vellum/client/node';
import { CliError, EXIT, type Command, type CommandGroup, type Flags } from '../command.js';
import { describeFailure, reachingFetch } from '../describe-failure.js';
import { collectFiles } from '../media/collect-files.js';
import { ProgressDisplay } from '../media/progress-display.js';
import type { FileJob, FileOutcome } from '../media/upload-outcome.js';
import { resolveFreshConnection, SERVER_OPTIONS } from '../profiles/resolve-connection.js';

/** No token, or the server refused it (401/403): every other file would fail the same way. */
export const EXIT_NO_PERMISSION = EXIT.noPerm;
const EXIT_INTERRUPTED = 130;

export const mediaUploadCommand: Command = {
  name: 'upload',
  summary: 'Upload files to the media library (directories walked, dotfiles skipped; resumable)',
  synopsis: '<files or directories…>',
  options: {
    ...SERVER_OPTIONS,
    concurrency: { type: 'string', value: 'N', help: 'parallel uploads (default 4)' },
    alt: { type: 'string', value: 'TEXT', help: 'alt text for every file' },
    title: { type: 'string', value: 'TEXT', help: 'title for every file' },
    json: { type: 'boolean', help: 'one JSON object per file on stdout: {file, status, id?, error?}' },
  },
  args: { min: 1, max: Infinity },
  notes:
    'Resumable: a file whose SHA-256 the library already has is skipped. The token needs media:upload and media:read.\n' +
    'Exit: 0 nothing failed, 1 a file failed, 64 bad usage, 77 no token or the token was refused (401/403), 130 interrupted.',
  run: ({ flags, args }) => mediaUpload(flags, args),
};

export const mediaCommand: CommandGroup = {
  name: 'media',
  summary: 'The media library.',
  subcommands: [mediaUploadCommand],
};

/** Errors that would repeat for every remaining file: stop starting new ones. */
class FatalError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

const RATE_LIMIT_RETRIES = 3;

/** `vellum media upload`: returns the exit code. */
export async function mediaUpload(flags: Flags, positionals: string[]): Promise<number> {
  const values = { alt: flags.string('alt'), title: flags.string('title'), json: flags.boolean('json') };
  const concurrency = flags.string('concurrency') === undefined ? 4 : Number(flags.string('concurrency'));
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new CliError('--concurrency must be a whole number of at least 1', EXIT.usage);
  const { url, token } = await resolveFreshConnection(flags);
  if (!token) {
    process.stderr.write('vellum media upload: no API token: pass --token TOKEN or set VELLUM_TOKEN (the token needs media:upload)\n');
    return EXIT_NO_PERMISSION;
  }
  const client = new VellumClient({ baseUrl: url, token, fetch: reachingFetch(url) });

  const { jobs, unreadable } = await collectFiles(positionals);
  const display = new ProgressDisplay(
    jobs.reduce((n, j) => n + j.size, 0),
    jobs.length + unreadable.length,
    values.json,
  );
  const outcomes: FileOutcome[] = [];
  // A failure every file shares (a refused token, no server) is said once, at the end, not per file.
  const record = (outcome: FileOutcome, job?: FileJob, shared = false) => {
    outcomes.push(outcome);
    display.finished(outcome, job, shared);
    if (values.json) process.stdout.write(`${JSON.stringify(outcome)}\n`);
  };
  for (const outcome of unreadable) record(outcome);

  const interrupt = new AbortController();
  const onSigint = () => interrupt.abort();
  process.once('SIGINT', onSigint);
  let fatal: FatalError | undefined;
  const uploader = new Uploader(client, { alt: values.alt, title: values.title, signal: interrupt.signal, display });
  try {
    await runPool(jobs, concurrency, async (job) => {
      if (fatal || interrupt.signal.aborted) {
        record({ file: job.file, status: 'failed', error: `not attempted: ${fatal?.message ?? 'interrupted'}` }, job, true);
        return;
      }
      try {
        record({ file: job.file, ...(await uploader.upload(job)) }, job);
      } catch (err) {
        if (err instanceof FatalError) fatal ??= err;
        const error = interrupt.signal.aborted ? 'interrupted' : describeFailure(err).line;
        record({ file: job.file, status: 'failed', error }, job, err instanceof FatalError || interrupt.signal.aborted);
      }
    });
  } finally {
    process.removeListener('SIGINT', onSigint);
    display.close();
  }

  const count = (status: FileOutcome['status']) => outcomes.filter((o) => o.status === status).length;
  const summary = `${count('uploaded')} uploaded, ${count('skipped')} skipped, ${count('failed')} failed\n`;
  // With --json, stdout carries only the JSON lines.
  (values.json ? process.stderr : process.stdout).write(summary);
  if (interrupt.signal.aborted) return EXIT_INTERRUPTED;
  if (fatal) throw new CliError(`stopped: ${fatal.message}`, fatal.exitCode);
  return count('failed') > 0 ? 1 : 0;
}

/**
 * Hashes, asks the library for the hash, uploads what it does not have. Identical files in one
 * run are uploaded once: the later ones wait for the first and are skipped.
 */
class Uploader {
  private readonly claimed = new Map<string, Promise<string | undefined>>();

  constructor(
    private readonly client: VellumClient,
    private readonly opts: { alt?: string; title?: string; signal: AbortSignal; display: ProgressDisplay },
  ) {}

  async upload(job: FileJob): Promise<Omit<FileOutcome, 'file'>> {
    const sha256 = await fileSha256(job.file, this.opts.signal);
    const earlier = this.claimed.get(sha256);
    if (earlier) {
      const id = await earlier;
      if (id) return { status: 'skipped', id };
    }
    let settle: (id: string | undefined) => void = () => undefined;
    this.claimed.set(sha256, new Promise((r) => (settle = r)));
    try {
      const existing = await this.call(() => this.client.findMediaBySha256(sha256));
      if (existing) {
        settle(existing._id);
        return { status: 'skipped', id: existing._id };
      }
      const media = await this.call(() =>
        this.client.uploadMedia(job.file, {
          alt: this.opts.alt,
          title: this.opts.title,
          signal: this.opts.signal,
          onProgress: (sent, total) => this.opts.display.progress(job, sent, total),
        }),
      );
      settle(media._id);
      return { status: 'uploaded', id: media._id };
    } catch (err) {
      settle(undefined);
      throw err;
    }
  }

  /** Retries after a 429 as the server asks; turns errors that every file would hit into FatalError. */
  private async call<T>(fn: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await fn();
      } catch (err) {
        if (err instanceof VellumApiError && err.status === 429 && attempt < RATE_LIMIT_RETRIES) {
          await sleep(Math.min(err.error.retryAfter ?? 1, 60) * 1000, this.opts.signal);
          continue;
        }
        if (err instanceof VellumApiError && (err.status === 401 || err.status === 403))
          throw new FatalError(describeFailure(err).line, EXIT_NO_PERMISSION);
        // Nothing answered (reachingFetch): no other file will get through either.
        if (err instanceof CliError && err.exitCode === EXIT.unavailable) throw new FatalError(err.message, err.exitCode);
        throw err;
      }
    }
  }
}

async function fileSha256(path: string, signal: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { signal })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((res, rej) => {
    if (signal.aborted) return rej(signal.reason);
    const timer = setTimeout(res, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), rej(signal.reason)), { once: true });
  });
}

async function runPool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}
