import type { VellumConfig } from '@vellum/server';
import { CliError, EXIT } from './command.js';

/**
 * The configuration as `vellum serve` loads it (`--config`, VELLUM_CONFIG, vellum.config.* in the
 * working directory; environment such as DATABASE_URL over the file). Problems are one line, exit 78.
 */
export async function loadServerConfig(configPath: string | undefined): Promise<VellumConfig> {
  const { ConfigError, loadConfig } = await import('@vellum/server');
  try {
    return await loadConfig({ configPath });
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(`the configuration has problems: ${err.problems.join('; ')}`, EXIT.config);
    throw err;
  }
}
