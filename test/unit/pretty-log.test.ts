import { describe, expect, it } from 'vitest';
import { formatLogLine, prettyLogStream } from '../../packages/cli/src/output/pretty-log.js';

/** `vellum dev`'s log lines (docs/cli.md, "Serving"): one readable line per JSON line of the server. */
const at = new Date(2026, 10, 28, 12, 4, 31).getTime();

describe('formatLogLine', () => {
  it('a request line: method, path, status, error code, milliseconds', () => {
    expect(
      formatLogLine(
        JSON.stringify({ level: 30, time: at, method: 'GET', url: '/api/documents/post', status: 200, ms: 3.1, msg: 'request' }),
      ),
    ).toBe('12:04:31 GET /api/documents/post 200 3.1 ms\n');
    expect(
      formatLogLine(
        JSON.stringify({
          level: 30,
          time: at,
          method: 'POST',
          url: '/api/documents/post',
          status: 422,
          code: 'VALIDATION_ERROR',
          ms: 2,
          msg: 'request',
        }),
      ),
    ).toBe('12:04:31 POST /api/documents/post 422 VALIDATION_ERROR 2 ms\n');
  });

  it('other lines: the message, with the level when it is not info, and an error’s stack indented below', () => {
    expect(formatLogLine(JSON.stringify({ level: 30, time: at, msg: 'Server listening' }))).toBe('12:04:31 Server listening\n');
    expect(
      formatLogLine(JSON.stringify({ level: 50, time: at, msg: 'failed', err: { message: 'boom', stack: 'Error: boom\n    at x' } })),
    ).toBe('12:04:31 ERROR failed\n  Error: boom\n      at x\n');
  });

  it('a line that is not JSON passes as it is', () => {
    expect(formatLogLine('plain text')).toBe('plain text\n');
  });

  it('the stream formats each line of a chunk', () => {
    let out = '';
    const stream = prettyLogStream({ write: (t: string) => (out += t) });
    stream.write(`${JSON.stringify({ level: 40, time: at, msg: 'one' })}\n${JSON.stringify({ level: 30, time: at, msg: 'two' })}\n`);
    expect(out).toBe('12:04:31 WARN one\n12:04:31 two\n');
  });
});
