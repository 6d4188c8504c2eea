import { ConfigError, resolveConfig } from '../../packages/server/src/config/index.js';

/** The problems resolveConfig reports for this file and environment; none when it accepts them. */
export function configProblems(file: unknown, env: NodeJS.ProcessEnv = {}): string[] {
  try {
    resolveConfig(file, env);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}
