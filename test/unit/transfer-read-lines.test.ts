import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readLines } from '../../packages/cli/src/transfer/read-lines.js';

async function collect(chunks: Buffer[]) {
  const out = [];
  for await (const line of readLines(Readable.from(chunks))) out.push(line);
  return out;
}

describe('readLines (the import reads an export line by line)', () => {
  it('splits on newlines across chunks, multi-byte characters cut between chunks included', async () => {
    const text = Buffer.from('{"a":"crème"}\r\n{"b":2}\n\n{"c":"日本"}\n');
    // Cut inside "è" and inside "日".
    const cuts = [text.indexOf(Buffer.from('è')) + 1, text.indexOf(Buffer.from('日')) + 2];
    const chunks = [text.subarray(0, cuts[0]), text.subarray(cuts[0], cuts[1]), text.subarray(cuts[1])];
    expect(await collect(chunks)).toEqual([
      { text: '{"a":"crème"}', number: 1, terminated: true },
      { text: '{"b":2}', number: 2, terminated: true },
      { text: '', number: 3, terminated: true },
      { text: '{"c":"日本"}', number: 4, terminated: true },
    ]);
  });

  it('marks a last line without its newline as not terminated (a file cut short)', async () => {
    expect(await collect([Buffer.from('{"a":1}\n{"b":')])).toEqual([
      { text: '{"a":1}', number: 1, terminated: true },
      { text: '{"b":', number: 2, terminated: false },
    ]);
  });

  it('reads only as far as the consumer asks', async () => {
    let produced = 0;
    const input = new Readable({
      read() {
        produced++;
        this.push(`${'x'.repeat(100_000)}\n`);
      },
    });
    let consumed = 0;
    for await (const _line of readLines(input)) {
      if (++consumed === 20) break;
    }
    expect(produced).toBeLessThan(40);
  });
});
