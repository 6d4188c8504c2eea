import type { DoctorCheck } from '@vellum/server';
import { EXIT, type Command } from '../command.js';
import { JSON_OPTION, printJson } from '../output/json-output.js';
import { CONFIG_OPTIONS } from './serve.js';

const MARK = { ok: '✓', failed: '✗', skipped: '-' } as const;

/**
 * `vellum doctor` (docs/operations.md, "Doctor"): one line per check of what this node needs
 * (config, database, clock, Redis, file store, SMTP, disk), exit 0 when none failed and 1 when
 * one did. Nothing is started and nothing is changed (the storage probe removes what it wrote).
 */
export const doctorCommand: Command = {
  name: 'doctor',
  summary: 'Check the configuration, database, clock, Redis, media storage, SMTP and disk of this node',
  synopsis: '',
  options: { ...CONFIG_OPTIONS, ...JSON_OPTION('the checks ([{check, status, detail}])') },
  args: { min: 0, max: 0 },
  notes: 'Exit: 0 when every configured part answers, 1 when one does not (a bad configuration is one failed check).',
  async run({ flags }) {
    const { ConfigError, loadConfig, runDoctor } = await import('@vellum/server');
    let checks: DoctorCheck[];
    try {
      checks = await runDoctor(await loadConfig({ configPath: flags.string('config') }));
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      checks = [{ check: 'config', status: 'failed', detail: err.problems.join('; ') }];
    }
    if (flags.boolean('json')) printJson(checks);
    else {
      const width = Math.max(...checks.map((c) => c.check.length));
      for (const c of checks) process.stdout.write(`${MARK[c.status]} ${c.check.padEnd(width)}  ${c.detail}\n`);
    }
    return checks.some((c) => c.status === 'failed') ? EXIT.failure : EXIT.ok;
  },
};
