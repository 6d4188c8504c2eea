import type { Readable } from 'node:stream';

/** Far above the longest line an export writes (256 KiB of base64, or one document with its history). */
const MAX_LINE_BYTES = 64 * 1024 * 1024;

export interface Line {
  text: string;
  number: number;
  /** False for a last line without its `\n`: the file was cut there. */
  terminated: boolean;
}

/**
 * The lines of `input`, read as the consumer asks for them. Not `node:readline`: its async
 * iterator reads ahead up to about a thousand lines while the consumer is busy (a few hundred MB
 * of media lines), where iterating the stream itself holds one chunk and one line at a time.
 * Splitting on the byte `\n` is safe in UTF-8, which never uses it inside a character.
 */
export async function* readLines(input: Readable): AsyncGenerator<Line> {
  let parts: Buffer[] = [];
  let size = 0;
  let number = 0;
  for await (const chunk of input as AsyncIterable<Buffer | string>) {
    let buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let nl = buf.indexOf(10); nl !== -1; nl = buf.indexOf(10)) {
      parts.push(buf.subarray(0, nl));
      yield { text: decode(parts), number: ++number, terminated: true };
      parts = [];
      size = 0;
      buf = buf.subarray(nl + 1);
    }
    if (buf.length > 0) {
      parts.push(buf);
      size += buf.length;
      if (size > MAX_LINE_BYTES) throw new Error(`line ${number + 1} is longer than ${MAX_LINE_BYTES} bytes`);
    }
  }
  if (size > 0) yield { text: decode(parts), number: ++number, terminated: false };
}

function decode(parts: Buffer[]): string {
  const text = (parts.length === 1 ? parts[0]! : Buffer.concat(parts)).toString('utf8');
  return text.endsWith('\r') ? text.slice(0, -1) : text;
}
