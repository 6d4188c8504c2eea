import { describe, expect, it } from 'vitest';
import { SseParser, type SseMessage } from '../../packages/client/src/sse-parser.js';

function parse(chunks: string[]): { messages: SseMessage[]; retries: number[]; parser: SseParser } {
  const messages: SseMessage[] = [];
  const retries: number[] = [];
  const parser = new SseParser(
    (m) => messages.push(m),
    (ms) => retries.push(ms),
  );
  for (const c of chunks) parser.push(c);
  return { messages, retries, parser };
}

const STREAM =
  'retry: 2000\n\n: ping\n\nid: 1\nevent: document.created\ndata: {"a":1}\n\nid: 2\nevent: document.updated\ndata: {"b":2}\n\n';

describe('SseParser (the client side of GET /events)', () => {
  it('dispatches id, event and data per message; skips comments; reports retry', () => {
    const { messages, retries, parser } = parse([STREAM]);
    expect(messages).toEqual([
      { lastEventId: '1', event: 'document.created', data: '{"a":1}' },
      { lastEventId: '2', event: 'document.updated', data: '{"b":2}' },
    ]);
    expect(retries).toEqual([2000]);
    expect(parser.lastEventId).toBe('2');
  });

  it('gives the same messages whatever the chunking, one character at a time included', () => {
    const whole = parse([STREAM]).messages;
    expect(parse(STREAM.split('')).messages).toEqual(whole);
    for (let cut = 1; cut < STREAM.length; cut += 7) expect(parse([STREAM.slice(0, cut), STREAM.slice(cut)]).messages).toEqual(whole);
  });

  it('takes CRLF and CR line ends, also split between chunks', () => {
    const crlf = STREAM.replace(/\n/g, '\r\n');
    const cr = STREAM.replace(/\n/g, '\r');
    const whole = parse([STREAM]).messages;
    expect(parse([crlf]).messages).toEqual(whole);
    expect(parse(crlf.split('')).messages).toEqual(whole);
    expect(parse([cr]).messages).toEqual(whole);
    expect(parse(cr.split('')).messages).toEqual(whole);
  });

  it('joins data lines with a line break, defaults the event name to message, strips one leading BOM and one space', () => {
    const { messages } = parse(['\ufeffdata:  two spaces\ndata\ndata:x\n\n']);
    expect(messages).toEqual([{ lastEventId: '', event: 'message', data: ' two spaces\n\nx' }]);
  });

  it('keeps the last id across messages without one; an id-only message sets it without dispatching; an empty id clears it', () => {
    const { messages, parser } = parse(['id: 7\ndata: a\n\ndata: b\n\nid: 9\n\n']);
    expect(messages.map((m) => m.lastEventId)).toEqual(['7', '7']);
    expect(parser.lastEventId).toBe('9');
    parser.push('id\nevent: reset\ndata: {}\n\n');
    expect(parser.lastEventId).toBe('');
  });

  it('ignores an unfinished message, unknown fields, a non-numeric retry and an id holding NUL', () => {
    const { messages, retries } = parse(['foo: bar\nretry: soon\nid: a\0b\ndata: x\n\ndata: unfinished']);
    expect(messages).toEqual([{ lastEventId: '', event: 'message', data: 'x' }]);
    expect(retries).toEqual([]);
  });
});
