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

  it('reports drafts and schedules: a plain line each, a failure or a schedule left out on a terminal too', () => {
    const events = (p: TransferProgress) => {
      p.onProgress({ kind: 'draft', type: 'post', id: 'p1', status: 'written' });
      p.onProgress({ kind: 'schedule', type: 'post', id: 'p1', action: 'publish', at: '2030-01-01T00:00:00.000Z', status: 'created' });
      p.onProgress({ kind: 'schedule', type: 'post', id: 'p2', action: 'unpublish', at: '2001-01-01T00:00:00.000Z', status: 'past' });
      p.onProgress({ kind: 'draft', type: 'post', id: 'p3', status: 'failed', error: 'draft: 422 VALIDATION_ERROR' });
    };
    const plain = terminal(false);
    events(new TransferProgress(plain));
    expect(plain.written).toEqual([
      'written draft of post p1\n',
      'created schedule publish post p1 at 2030-01-01T00:00:00.000Z\n',
      'left out schedule unpublish post p2 at 2001-01-01T00:00:00.000Z: its time has passed\n',
      'failed draft of post p3: draft: 422 VALIDATION_ERROR\n',
    ]);
    const tty = terminal(true);
    events(new TransferProgress(tty));
    expect(tty.written).toEqual([
      '\r\x1b[Kleft out schedule unpublish post p2 at 2001-01-01T00:00:00.000Z: its time has passed\n',
      '\r\x1b[Kfailed draft of post p3: draft: 422 VALIDATION_ERROR\n',
    ]);
  });
});
