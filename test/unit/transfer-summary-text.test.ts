import { describe, expect, it } from 'vitest';
import { exportSummaryText, importSummaryText } from '../../packages/cli/src/transfer/summary-text.js';

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
    });
    expect(text).toBe(
      'Documents: 5 created, 1 updated, 2 unchanged. Media: 3 uploaded, 0 unchanged. 1 failure.\n' +
        '2 earlier versions refused by the target, left out of the history.\n' +
        '  failed post p9: 422 VALIDATION_ERROR: Validation failed\n',
    );
  });
});
