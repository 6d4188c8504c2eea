import { findConfigFile, loadConfigFile } from './load-config-file.js';
import { resolveConfig, type ConfigFlags } from './resolve-config.js';
import type { VellumConfig } from './types.js';

export { ConfigError, EXIT_CONFIG } from './config-error.js';
export { findConfigFile } from './load-config-file.js';
export { resolveConfig } from './resolve-config.js';
export type { ConfigFlags } from './resolve-config.js';
export type * from './types.js';

export interface LoadConfigOptions {
  configPath?: string;
  flags?: ConfigFlags;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/** Finds, loads and resolves the configuration for `vellum serve`. */
export async function loadConfig(opts: LoadConfigOptions = {}): Promise<VellumConfig> {
  const env = opts.env ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  const path = findConfigFile(opts.configPath ?? env.VELLUM_CONFIG, cwd);
  const file = path ? await loadConfigFile(path) : {};
  return resolveConfig(file, env, opts.flags);
}
