import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../packages/server/src/config/index.js';

/** `documents.scheduleRunner` (docs/schedules.md, "Running"): on by default, off per node. */
describe('documents.scheduleRunner', () => {
  it('is on by default; the file turns it off; DOCUMENTS_SCHEDULE_RUNNER overrides the file', () => {
    expect(resolveConfig({}, {}).documents.scheduleRunner).toBe(true);
    expect(resolveConfig({ documents: { scheduleRunner: false } }, {}).documents.scheduleRunner).toBe(false);
    expect(resolveConfig({}, { DOCUMENTS_SCHEDULE_RUNNER: 'false' }).documents.scheduleRunner).toBe(false);
    expect(resolveConfig({ documents: { scheduleRunner: false } }, { DOCUMENTS_SCHEDULE_RUNNER: 'true' }).documents.scheduleRunner).toBe(
      true,
    );
  });
});
