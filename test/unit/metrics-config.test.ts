import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../packages/server/src/config/index.js';
import { configProblems } from '../helpers/config-problems.js';

/** `metrics {enabled, token}` and `VELLUM_METRICS_TOKEN` (docs/operations.md, "Metrics"). */
describe('metrics', () => {
  it('is on by default with no token; false or enabled: false switches it off', () => {
    expect(resolveConfig({}, {}).metrics).toEqual({ enabled: true });
    expect(resolveConfig({ metrics: false }, {}).metrics).toEqual({ enabled: false });
    expect(resolveConfig({ metrics: { enabled: false } }, {}).metrics).toEqual({ enabled: false });
  });

  it('takes a scrape token from the file or the environment, the environment winning', () => {
    const token = 'a-scrape-token-of-24-chars';
    expect(resolveConfig({ metrics: { token } }, {}).metrics).toEqual({ enabled: true, token });
    expect(resolveConfig({ metrics: { token } }, { VELLUM_METRICS_TOKEN: 'from-the-environment-1234' }).metrics.token).toBe(
      'from-the-environment-1234',
    );
  });

  it('refuses a short token (naming where it came from), unknown keys and wrong types', () => {
    expect(configProblems({ metrics: { token: 'short' } })).toEqual(['metrics.token: must be at least 16 characters']);
    expect(configProblems({}, { VELLUM_METRICS_TOKEN: 'short' })).toEqual(['VELLUM_METRICS_TOKEN: must be at least 16 characters']);
    expect(configProblems({ metrics: { path: '/m' } })).toEqual(['metrics.path: unknown setting']);
    expect(configProblems({ metrics: { enabled: 'yes' } })).toHaveLength(1);
    expect(configProblems({ metrics: 'on' })).toEqual(['metrics: expected an object']);
  });
});
