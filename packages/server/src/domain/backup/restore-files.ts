import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { errors } from '../../errors.js';
import type { FileStore } from '../../media/storage/file-store.js';
import type { FileLine } from './backup-format.js';

interface Open {
  line: FileLine;
  path: string;
  out: WriteStream;
  hash: Hash;
  bytes: number;
}

/**
 * The media files of a restore: each spooled to a temporary file while its lines arrive, checked
 * against its size and SHA-256, then put in the store. A key the store holds already with the
 * same bytes (the same media directory as the source's) is kept as it is; with other bytes the
 * restore stops rather than replace a file it did not write. `created` lists what it put, for
 * removal when the restore fails.
 */
export class RestoreFiles {
  readonly created: string[] = [];
  kept = 0;
  bytes = 0;
  private dir?: string;
  private open?: Open;
  private count = 0;

  constructor(private readonly store: FileStore) {}

  get written(): number {
    return this.count;
  }

  async start(line: FileLine): Promise<void> {
    if (this.open) throw errors.invalidInput(`The backup starts file ${line.key} before file ${this.open.line.key} has ended`);
    this.dir ??= await mkdtemp(join(tmpdir(), 'vellum-restore-'));
    const path = join(this.dir, String(this.count));
    this.open = { line, path, out: createWriteStream(path), hash: createHash('sha256'), bytes: 0 };
  }

  async data(base64: string): Promise<void> {
    const open = this.opened('file-data');
    const chunk = Buffer.from(base64, 'base64');
    open.hash.update(chunk);
    open.bytes += chunk.length;
    if (!open.out.write(chunk)) await once(open.out, 'drain');
  }

  async end(sha256: string): Promise<void> {
    const open = this.opened('file-end');
    this.open = undefined;
    open.out.end();
    await finished(open.out);
    const { key, size, contentType } = open.line;
    const digest = open.hash.digest('hex');
    if (open.bytes !== size || digest !== sha256)
      throw errors.invalidInput(`File ${key} in the backup is damaged (its size or SHA-256 differs)`);
    const present = await this.store.stat(key);
    if (present) {
      if (present.size !== size || (await this.storedDigest(key)) !== digest) {
        throw errors.conflict(`The media store already holds ${key} with other bytes: restore into an empty store`);
      }
      this.kept++;
    } else {
      await this.store.put(key, createReadStream(open.path), contentType);
      this.created.push(key);
    }
    await rm(open.path, { force: true });
    this.bytes += size;
    this.count++;
  }

  /** Whether a file is still open (the backup ended inside one). */
  get inFile(): boolean {
    return this.open !== undefined;
  }

  async close(): Promise<void> {
    this.open?.out.destroy();
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
  }

  private opened(kind: string): Open {
    if (!this.open) throw errors.invalidInput(`The backup has a ${kind} line outside a file`);
    return this.open;
  }

  private async storedDigest(key: string): Promise<string | undefined> {
    const stored = await this.store.get(key);
    if (!stored) return undefined;
    const hash = createHash('sha256');
    for await (const chunk of stored.body as AsyncIterable<Buffer>) hash.update(chunk);
    return hash.digest('hex');
  }
}
