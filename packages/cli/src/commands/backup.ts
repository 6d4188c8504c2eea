import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PassThrough } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { BackupCounts, RestoreSummary } from '@vellum/server';
import { CliError, EXIT, type Command, type Flags } from '../command.js';
import { readSecret, readStdin } from '../input/read-stdin.js';
import { JSON_OPTION, printJson } from '../output/json-output.js';
import { loadServerConfig } from '../server-config.js';
import { BackupProgressLine } from '../transfer/backup-progress.js';
import { CONFIG_OPTIONS } from './serve.js';

const PASSPHRASE_ENV = 'VELLUM_BACKUP_PASSPHRASE';

const PASSPHRASE_STDIN = {
  'passphrase-stdin': {
    type: 'boolean',
    help: `read the passphrase from stdin (its first line); else ${PASSPHRASE_ENV}, else a terminal asks`,
  },
} as const;

/**
 * The passphrase: stdin with --passphrase-stdin, else VELLUM_BACKUP_PASSPHRASE, else asked on a
 * terminal (twice when it is new). Never a flag value: it would land in shell history and `ps`.
 */
async function passphrase(flags: Flags, confirm: boolean, missing = ''): Promise<string> {
  if (flags.boolean('passphrase-stdin')) {
    const line = (await readStdin()).split(/\r?\n/)[0];
    if (!line) throw new CliError('--passphrase-stdin: stdin has no passphrase', EXIT.usage);
    return line;
  }
  const env = process.env[PASSPHRASE_ENV];
  if (env) return env;
  if (!process.stdin.isTTY) throw new CliError(`${missing}give the passphrase with --passphrase-stdin or ${PASSPHRASE_ENV}`, EXIT.usage);
  const first = await readSecret('Passphrase: ');
  if (confirm && (await readSecret('Again: ')) !== first) throw new CliError('the passphrases differ', EXIT.usage);
  return first;
}

/** The server's refusals as exit codes: a bad file 65, a wrong passphrase 77, a database not empty 73. */
function asCliError(err: unknown): unknown {
  const app = err as { name?: string; code?: string; message?: string };
  if (app?.name !== 'AppError') return err;
  const code = { INVALID_INPUT: EXIT.dataErr, VALIDATION_ERROR: EXIT.dataErr, FORBIDDEN: EXIT.noPerm, CONFLICT: EXIT.cantCreate }[
    app.code ?? ''
  ];
  return code === undefined ? err : new CliError(app.message ?? 'failed', code);
}

/** `vellum backup` (docs/backup.md). */
export const backupCommand: Command = {
  name: 'backup',
  summary: 'Back up the whole instance (content, media, accounts, settings) from the configured database',
  synopsis: '',
  options: {
    ...CONFIG_OPTIONS,
    out: { type: 'string', short: 'o', value: 'FILE', help: 'write to FILE (gzipped when it ends in .gz) instead of stdout' },
    'include-secrets': {
      type: 'boolean',
      help: 'also MFA secrets, passkeys, trusted devices and webhook secrets, encrypted with a passphrase',
    },
    ...PASSPHRASE_STDIN,
    ...JSON_OPTION('the counts (needs -o)'),
  },
  args: { min: 0, max: 0 },
  notes:
    'Reads one consistent snapshot: the site may keep serving. Progress on stderr.\n' +
    'Example: VELLUM_BACKUP_PASSPHRASE=… vellum backup --include-secrets -o site.vellum-backup.gz',
  async run({ flags }) {
    const file = flags.string('out');
    const json = flags.boolean('json');
    if (json && file === undefined)
      throw new CliError('--json needs -o FILE: without it the backup itself is written to stdout', EXIT.usage);
    if (flags.boolean('passphrase-stdin') && !flags.boolean('include-secrets'))
      throw new CliError('--passphrase-stdin goes with --include-secrets', EXIT.usage);
    const config = await loadServerConfig(flags.string('config'));
    const secret = flags.boolean('include-secrets') ? await passphrase(flags, true) : undefined;
    const { backupInstance, MIN_PASSPHRASE_LENGTH } = await import('@vellum/server');
    if (secret !== undefined && [...secret].length < MIN_PASSPHRASE_LENGTH) {
      throw new CliError(`the passphrase must have at least ${MIN_PASSPHRASE_LENGTH} characters`, EXIT.usage);
    }
    // Into FILE.partial, renamed when complete: FILE is never a backup cut short.
    const partial = file === undefined ? undefined : `${file}.partial`;
    const progress = new BackupProgressLine('backed up');
    let counts: BackupCounts;
    const lines = new PassThrough();
    try {
      if (partial === undefined)
        counts = await backupInstance(config, process.stdout, { passphrase: secret, onProgress: progress.onProgress });
      else {
        // Readable by its owner only: the file holds password hashes, and with secrets more.
        const sink: Writable = createWriteStream(partial, { mode: 0o600 });
        const written = file!.endsWith('.gz') ? pipeline(lines, createGzip(), sink) : pipeline(lines, sink);
        written.catch(() => undefined);
        counts = await backupInstance(config, lines, { passphrase: secret, onProgress: progress.onProgress });
        lines.end();
        await written;
        await rename(partial, file!);
      }
    } catch (err) {
      progress.close();
      lines.destroy();
      if (partial !== undefined) await rm(partial, { force: true });
      throw asCliError(err);
    }
    progress.close();
    if (json) printJson({ file, secrets: secret !== undefined, ...counts });
    else process.stderr.write(backupSummary(counts, file, secret !== undefined));
    return EXIT.ok;
  },
};

/** `vellum restore` (docs/backup.md). */
export const restoreCommand: Command = {
  name: 'restore',
  summary: 'Restore a backup into the configured database, which must be empty (SQLite or PostgreSQL)',
  synopsis: '<file>',
  options: {
    ...CONFIG_OPTIONS,
    ...PASSPHRASE_STDIN,
    'without-secrets': { type: 'boolean', help: 'restore a backup with secrets without them (turns its webhooks off)' },
    ...JSON_OPTION('the summary'),
  },
  args: { min: 1, max: 1 },
  notes: 'Example: DATABASE_URL=postgres://… vellum restore site.vellum-backup.gz',
  async run({ flags, args: [file] }) {
    const config = await loadServerConfig(flags.string('config'));
    const withoutSecrets = flags.boolean('without-secrets');
    if (withoutSecrets && flags.boolean('passphrase-stdin')) throw new CliError('--without-secrets needs no passphrase', EXIT.usage);
    if (!(await stat(file!).catch(() => undefined))?.isFile()) throw new CliError(`${file}: no such file`, EXIT.noInput);
    const { restoreInstance } = await import('@vellum/server');
    const input: Readable = createReadStream(file!);
    const progress = new BackupProgressLine('restored');
    let summary: RestoreSummary;
    try {
      summary = await restoreInstance(config, input, {
        passphrase: () => passphrase(flags, false, 'the backup holds secrets: restore it --without-secrets, or '),
        withoutSecrets,
        onProgress: progress.onProgress,
      });
    } catch (err) {
      progress.close();
      throw asCliError(err);
    } finally {
      input.destroy();
    }
    progress.close();
    if (flags.boolean('json')) printJson(summary);
    else process.stderr.write(restoreSummary(summary));
    return EXIT.ok;
  },
};

const total = (tables: Record<string, number>) => Object.values(tables).reduce((a, b) => a + b, 0);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export function backupSummary(counts: BackupCounts, file: string | undefined, secrets: boolean): string {
  const lines = [
    `backed up ${counts.tables.documents ?? 0} documents, ${counts.tables.users ?? 0} users and ${counts.files} files (${mb(counts.bytes)}): ` +
      `${total(counts.tables)} rows of ${Object.keys(counts.tables).length} tables, ${secrets ? 'secrets encrypted' : 'without secrets'}${file ? `, to ${file}` : ''}`,
  ];
  if (counts.missingFiles.length > 0)
    lines.push(
      `warning: ${counts.missingFiles.length} files were deleted while the backup ran: ${counts.missingFiles.slice(0, 5).join(', ')}`,
    );
  return `${lines.join('\n')}\n`;
}

export function restoreSummary(s: RestoreSummary): string {
  const lines = [
    `restored ${s.tables.documents ?? 0} documents, ${s.tables.users ?? 0} users and ${s.files} files (${mb(s.bytes)}; ${s.keptFiles} were in the store already): ` +
      `${total(s.tables)} rows; secrets ${s.secrets}`,
  ];
  if (s.webhooksDisabled > 0) lines.push(`warning: ${s.webhooksDisabled} webhooks are off: rotate each one's secret, then turn it on`);
  if (s.totpWithoutSecret > 0) {
    lines.push(
      `warning: ${s.totpWithoutSecret} users' authenticator apps were restored without their secret: they sign in with a backup code, or an admin resets their MFA`,
    );
  }
  if (s.missingFiles.length > 0)
    lines.push(`warning: the backup lacks ${s.missingFiles.length} files its media name: ${s.missingFiles.slice(0, 5).join(', ')}`);
  return `${lines.join('\n')}\n`;
}
