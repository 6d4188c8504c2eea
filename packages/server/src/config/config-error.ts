/** A configuration that cannot start the service; `problems` holds one line per problem. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
}

/** The exit code for a bad configuration (EX_CONFIG from sysexits.h). */
export const EXIT_CONFIG = 78;
