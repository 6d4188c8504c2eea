import { randomFillSync } from 'node:crypto';

// Random bytes are drawn 4 KiB at a time: one call into the CSPRNG per 256 ids instead of per id.
const POOL = Buffer.alloc(4096);
let poolOffset = POOL.length;

let lastMs = -1;
let counter = 0;

/**
 * UUIDv7 (RFC 9562 §5.7): 48-bit millisecond timestamp, then random bits. Ids created later sort
 * later, which keeps B-tree inserts at the end of the index. Ids made in one millisecond by this
 * process sort in the order they were made too (RFC 9562 §6.2, method 1: a 12-bit counter in
 * `rand_a`, started at a random value below 2048), so events written together keep their order.
 */
export function uuidv7(now = Date.now()): string {
  if (poolOffset + 16 > POOL.length) {
    randomFillSync(POOL);
    poolOffset = 0;
  }
  const bytes = Buffer.from(POOL.subarray(poolOffset, poolOffset + 16)); // a copy: the pool is refilled in place
  poolOffset += 16;
  bytes.writeUIntBE(now, 0, 6);
  if (now === lastMs && counter < 0xfff) {
    counter++;
  } else {
    lastMs = now;
    counter = bytes.readUInt16BE(6) & 0x7ff;
  }
  bytes.writeUInt16BE(0x7000 | counter, 6);
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
