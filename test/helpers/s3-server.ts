import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/** s3rver accepts only these credentials (it checks request signatures). */
export const S3RVER_ACCESS_KEY_ID = 'S3RVER';
export const S3RVER_SECRET_ACCESS_KEY = 'S3RVER';

/** A real S3-compatible server on loopback, storing into a fresh temp directory, with one empty bucket. */
export async function startS3Server(): Promise<{ endpoint: string; bucket: string; close(): Promise<void> }> {
  const directory = mkdtempSync(join(tmpdir(), 'vellum-s3-'));
  const bucket = `vellum-test-${randomBytes(4).toString('hex')}`;
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  try {
    const { port } = await server.run();
    return {
      endpoint: `http://127.0.0.1:${port}`,
      bucket,
      async close() {
        await server.close();
        rmSync(directory, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(directory, { recursive: true, force: true });
    throw err;
  }
}

/** The `media` config section of an app storing into `server`'s bucket. */
export function s3MediaConfig(server: { endpoint: string; bucket: string }): Record<string, unknown> {
  return {
    storage: 's3',
    s3: {
      bucket: server.bucket,
      endpoint: server.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      accessKeyId: S3RVER_ACCESS_KEY_ID,
      secretAccessKey: S3RVER_SECRET_ACCESS_KEY,
    },
  };
}
