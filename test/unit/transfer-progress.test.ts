import { describe, expect, it } from 'vitest';
import { TransferProgress } from '../../packages/cli/src/transfer/transfer-progress.js';

function terminal(isTTY: boolean) {
  const written: string[] = [];
  return { isTTY, columns: 100, written, write: (text: string) => written.push(text) };
}

describe('TransferProgress', () => {
  it('writes one plain line per item when stderr is not a terminal', () => {
    const out = terminal(false);
    const p = new TransferProgress(out);
    p.onProgress({ kind: 'total', what: 'documents', total: 2 });
    p.onProgress({ kind: 'media', id: 'm1', status: 'uploaded', bytes: 10 });
    p.onProgress({ kind: 'document', type: 'post', id: 'p1', status: 'deferred' });
    p.onProgress({ kind: 'document', type: 'post', id: 'p2', status: 'skipped' });
    p.onProgress({ kind: 'document', type: 'post', id: 'p3', status: 'failed', error: '422 VALIDATION_ERROR' });
    p.close();
    expect(out.written).toEqual([
      'uploaded media m1\n',
      'deferred post p1 (references written later)\n',
      'skipped post p2\n',
      'failed post p3: 422 VALIDATION_ERROR\n',
    ]);
  });

  it('draws a bar on a terminal, with failures printed above it', () => {
    const out = terminal(true);
    const p = new TransferProgress(out);
    p.onProgress({ kind: 'total', what: 'documents', total: 2 });
    p.onProgress({ kind: 'document', type: 'post', id: 'p1', status: 'created' });
    p.onProgress({ kind: 'document', type: 'post', id: 'p2', status: 'failed', error: 'refused' });
    p.close();
    expect(out.written).toContain('\r\x1b[Kfailed post p2: refused\n');
    const last = out.written.at(-2)!;
    // eslint-disable-next-line no-control-regex -- the progress line ends with the ANSI erase-line escape
    expect(last).toMatch(/^\r\[#{30}\] media 0 {2}documents 2\/2 {2}1 failed\x1b\[K$/);
    expect(out.written.at(-1)).toBe('\n');
  });
});
