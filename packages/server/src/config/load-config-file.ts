import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve, extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError } from './config-error.js';

const CANDIDATES = ['vellum.config.json', 'vellum.config.js', 'vellum.config.mjs', 'vellum.config.ts'];

/** Finds the config file: explicit path (flag or VELLUM_CONFIG) first, else the first candidate in cwd. */
export function findConfigFile(explicit: string | undefined, cwd: string): string | undefined {
  if (explicit) {
    const path = resolve(cwd, explicit);
    if (!existsSync(path)) throw new ConfigError([`config: file not found: ${path}`]);
    return path;
  }
  for (const name of CANDIDATES) {
    const path = resolve(cwd, name);
    if (existsSync(path)) return path;
  }
  return undefined;
}

/** Reads a JSON, JS/MJS or TS config file; JS/TS files export the config as default (or as `config`). */
export async function loadConfigFile(path: string): Promise<unknown> {
  const ext = extname(path);
  try {
    if (ext === '.json') return JSON.parse(readFileSync(path, 'utf8'));
    // The file's time in the URL: a module is imported once per URL, and `vellum dev` reloads
    // the file after each change.
    const url = `${pathToFileURL(path).href}?mtime=${statSync(path).mtimeMs}`;
    if (ext === '.ts' || ext === '.mts' || ext === '.cts') {
      // tsx compiles the file on the fly, so users need no build step for a TS config.
      const { tsImport } = await import('tsx/esm/api');
      const mod = (await tsImport(url, import.meta.url)) as Record<string, unknown>;
      return unwrapModule(mod);
    }
    const mod = (await import(url)) as Record<string, unknown>;
    return unwrapModule(mod);
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError([`config: cannot load ${path}: ${(err as Error).message.split('\n')[0]}`]);
  }
}

function unwrapModule(mod: Record<string, unknown>): unknown {
  let value = mod.default ?? mod.config;
  // A TS file compiled to CJS may nest the default export one level deeper.
  if (value && typeof value === 'object' && 'default' in value && Object.keys(value).length === 1) {
    value = (value as Record<string, unknown>).default;
  }
  return typeof value === 'function' ? (value as () => unknown)() : value;
}
