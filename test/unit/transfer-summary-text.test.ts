import { describe, expect, it } from 'vitest';
import { exportSummaryText, importSummaryText } from '../../packages/cli/src/transfer/summary-text.js';

/** The drafts and schedules of an import whose file held none. */
const NO_WORKFLOW = { drafts: { written: 0, skipped: 0 }, schedules: { created: 0, skipped: 0 }, schedulesLeftOut: [] };

describe('transfer summaries', () => {
  it('says what an export wrote', () => {
    expect(exportSummaryText({ media: 1, documents: 7, revisions: 4 }, 'site.ndjson')).toBe(
      'Exported 7 documents (4 earlier revisions) and 1 media file to site.ndjson.\n',
    );
  });

  it('says what an import did, each failure on its own line', () => {
    const text = importSummaryText({
      created: 5,
      updated: 1,
      skipped: 2,
      failed: [{ id: 'p9', type: 'post', error: '422 VALIDATION_ERROR: Validation failed' }],
      media: { uploaded: 3, skipped: 0 },
      versionsLeftOut: 2,
      ...NO_WORKFLOW,
    });
    expect(text).toBe(
      'Documents: 5 created, 1 updated, 2 unchanged. Media: 3 uploaded, 0 unchanged. 1 failure.\n' +
        '2 earlier versions refused by the target, left out of the history.\n' +
        '  failed post p9: 422 VALIDATION_ERROR: Validation failed\n',
    );
  });

  it('adds the pending drafts and schedules when the file held some, naming each schedule left out', () => {
    expect(exportSummaryText({ media: 0, documents: 2, revisions: 0, drafts: 1, schedules: 2 })).toBe(
      'Exported 2 documents (0 earlier revisions) and 0 media files. With 1 pending draft and 2 pending schedules.\n',
    );
    const text = importSummaryText({
      created: 2,
      updated: 0,
      skipped: 0,
      failed: [],
      media: { uploaded: 0, skipped: 0 },
      versionsLeftOut: 0,
      drafts: { written: 1, skipped: 0 },
      schedules: { created: 1, skipped: 0 },
      schedulesLeftOut: [{ type: 'post', id: 'p2', action: 'publish', at: '2001-01-01T00:00:00.000Z' }],
    });
    expect(text).toBe(
      'Documents: 2 created, 0 updated, 0 unchanged. Media: 0 uploaded, 0 unchanged. 0 failures.\n' +
        'Drafts: 1 written, 0 unchanged. Schedules: 1 created, 0 unchanged, 1 left out (their time has passed).\n' +
        '  left out schedule publish post p2 at 2001-01-01T00:00:00.000Z: its time has passed\n',
    );
  });
});
