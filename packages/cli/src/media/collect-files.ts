import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { FileJob, FileOutcome } from './upload-outcome.js';

/**
 * The arguments as files to upload: directories walked depth-first in name order, skipping
 * entries whose name starts with a dot; symlinks to files are followed, symlinks to directories
 * are not (no cycles). A path named twice is uploaded once.
 */
export async function collectFiles(args: string[]): Promise<{ jobs: FileJob[]; unreadable: FileOutcome[] }> {
  const jobs: FileJob[] = [];
  const unreadable: FileOutcome[] = [];
  const seen = new Set<string>();
  const add = (file: string, size: number) => {
    const key = resolve(file);
    if (seen.has(key)) return;
    seen.add(key);
    jobs.push({ file, size });
  };
  const walk = async (dir: string): Promise<void> => {
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile() || entry.isSymbolicLink()) {
        const info = await stat(path).catch(() => undefined);
        if (info?.isFile()) add(path, info.size);
      }
    }
  };
  for (const arg of args) {
    try {
      const info = await stat(arg);
      if (info.isDirectory()) await walk(arg);
      else if (info.isFile()) add(arg, info.size);
      else unreadable.push({ file: arg, status: 'failed', error: 'not a file or directory' });
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      unreadable.push({ file: arg, status: 'failed', error: e.code === 'ENOENT' ? 'no such file or directory' : e.message });
    }
  }
  return { jobs, unreadable };
}
