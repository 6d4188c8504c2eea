import { describe, expect, it } from 'vitest';
import {
  canOnSchema,
  canReadHistory,
  canReadMedia,
  previewPermissions,
  readableTypes,
  requireAuthenticated,
  requireMayIssuePreview,
  requireMayListen,
  requireSchemaAction,
} from '../../packages/server/src/domain/access/policy.js';
import { ANONYMOUS, type Principal } from '../../packages/server/src/domain/access/principal.js';
import { importJwtKey, signAccessToken, verifyAccessToken } from '../../packages/server/src/domain/identity/access-tokens.js';
import { isPreviewToken, signPreviewToken, verifyPreviewToken } from '../../packages/server/src/domain/identity/preview-tokens.js';

/** What a preview principal may do (docs/preview.md, "What it may do"), and its token's rules. */
const preview: Principal = { kind: 'preview', id: 'u1', role: null, permissions: previewPermissions(['post']) };
const codeOf = (f: () => void) => {
  try {
    f();
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code;
  }
};

describe('the policy for a preview principal', () => {
  it('reads the types it names, and writes, deletes and publishes nothing', () => {
    expect(canOnSchema(preview, 'post', 'read')).toBe(true);
    expect(canOnSchema(preview, 'author', 'read')).toBe(false);
    for (const action of ['write', 'delete', 'publish'] as const)
      expect(codeOf(() => requireSchemaAction(preview, 'post', action))).toBe('FORBIDDEN');
  });

  it('reads media and the event stream, even where they are not public; no history', () => {
    expect(canReadMedia(preview, false)).toBe(true);
    expect(codeOf(() => requireMayListen(preview, false))).toBeUndefined();
    expect(codeOf(() => requireMayListen(ANONYMOUS, false))).toBe('UNAUTHORIZED');
    expect(canReadHistory(preview)).toBe(false);
  });

  it('is no signed-in caller, and cannot issue another preview token', () => {
    expect(codeOf(() => requireAuthenticated(preview))).toBe('FORBIDDEN');
    expect(codeOf(() => requireMayIssuePreview(preview, 'post'))).toBe('FORBIDDEN');
    expect(codeOf(() => requireMayIssuePreview(ANONYMOUS, 'post'))).toBe('UNAUTHORIZED');
  });

  it('a token carries the types its issuer may read every status of', () => {
    const writer: Principal = { kind: 'user', id: 'u2', role: 'writer', permissions: new Set(['post:read', 'author:write']) };
    expect(readableTypes(writer, ['post', 'author', 'secret'])).toEqual(['post']);
  });
});

describe('preview tokens', () => {
  const now = new Date('2026-11-28T04:00:00Z');
  const HOUR = 3_600_000;

  it('round-trip with the instance key; never pass as access tokens, nor access tokens as them', async () => {
    const key = await importJwtKey(new Uint8Array(32).fill(7));
    const { token, expiresAt } = await signPreviewToken(key, 'vellum', { sub: 'u1', types: ['post'] }, now, HOUR);
    expect(expiresAt).toBe('2026-11-28T05:00:00.000Z');
    expect(isPreviewToken(token)).toBe(true);
    expect(await verifyPreviewToken(key, 'vellum', token, now, HOUR)).toEqual({ sub: 'u1', types: ['post'] });
    await expect(verifyAccessToken(key, 'vellum', token, now, HOUR)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });

    const access = await signAccessToken(key, 'vellum', { sub: 'u1', sid: 's1', role: 'admin' }, now, HOUR);
    expect(isPreviewToken(access.token)).toBe(false);
    await expect(verifyPreviewToken(key, 'vellum', access.token, now, HOUR)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('refuses an expired token, another issuer and a lifetime longer than configured', async () => {
    const key = await importJwtKey(new Uint8Array(32).fill(9));
    const { token } = await signPreviewToken(key, 'vellum', { sub: 'u1', types: [] }, now, HOUR);
    const later = new Date(now.getTime() + HOUR + 1000);
    await expect(verifyPreviewToken(key, 'vellum', token, later, HOUR)).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      message: 'Token expired',
    });
    await expect(verifyPreviewToken(key, 'other', token, now, HOUR)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(verifyPreviewToken(key, 'vellum', token, now, HOUR / 2)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
