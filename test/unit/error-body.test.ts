import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errors, type ErrorDetail } from '../../packages/server/src/errors.js';
import { registerErrorHandling } from '../../packages/server/src/http/plugins/errors.js';
import { errorResponses } from '../../packages/server/src/http/schemas/common.js';
import { expectSpecError } from '../helpers/expect-error.js';

/**
 * The error handler cannot fail (docs/api.md, "Errors"): an error body that does not fit the
 * error schema is logged and replaced by a 500 in the spec's shape, never Fastify's own body.
 */

const lines: Array<{ level: number; msg?: string; err?: { stack?: string } }> = [];
let app: FastifyInstance;

beforeAll(async () => {
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  app = Fastify({ loggerInstance: log as FastifyBaseLogger });
  registerErrorHandling(app);
  // A detail without a field: the shape a bug elsewhere could hand the error handler.
  const badDetails = [{ message: 'has no field' } as unknown as ErrorDetail];
  app.get('/with-schema', { schema: { response: errorResponses } }, async () => {
    throw errors.validation(badDetails);
  });
  app.get('/without-schema', async () => {
    throw errors.invalidInput('bad', [{ field: 7, message: null } as unknown as ErrorDetail]);
  });
  app.get('/fine', { schema: { response: errorResponses } }, async () => {
    throw errors.validation([{ field: 'title', message: 'is required' }]);
  });
  await app.ready();
});

afterAll(() => app?.close());

describe('an error body that does not fit the error schema', () => {
  it.each(['/with-schema', '/without-schema'])('%s → 500 INTERNAL_ERROR in the spec shape, logged at error', async (url) => {
    lines.length = 0;
    const res = await app.inject({ method: 'GET', url });
    expectSpecError(res, 500, 'INTERNAL_ERROR');
    const logged = lines.filter((l) => l.level === 50);
    expect(logged, JSON.stringify(lines)).toHaveLength(1);
    expect(logged[0].err?.stack).toBeTruthy();
  });

  it('a body that fits is sent as it is', async () => {
    const res = await app.inject({ method: 'GET', url: '/fine' });
    expect(expectSpecError(res, 422, 'VALIDATION_ERROR').details).toEqual([{ field: 'title', message: 'is required' }]);
  });
});
