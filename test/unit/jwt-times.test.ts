import { describe, expect, it } from 'vitest';
import { checkJwtTimes, issuedAtAcceptable, MAX_IAT_AHEAD_S } from '../../packages/server/src/domain/identity/jwt-times.js';

// The time rules every JWT the server verifies meets (docs/api.md, "Authentication").
const now = new Date('2026-03-01T12:00:00Z');
const s = now.getTime() / 1000;
const HOUR_MS = 3_600_000;
const refused = (claims: { iat?: unknown; exp?: unknown }, lifetimeMs = HOUR_MS) => {
  try {
    checkJwtTimes(claims, now, lifetimeMs);
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code;
  }
};

describe('issuedAtAcceptable', () => {
  it('up to 60 s ahead of now passes; a second more, a year ahead, or no number does not', () => {
    expect(MAX_IAT_AHEAD_S).toBe(60);
    expect(issuedAtAcceptable(s - 86_400, now)).toBe(true);
    expect(issuedAtAcceptable(s + 60, now)).toBe(true);
    expect(issuedAtAcceptable(s + 61, now)).toBe(false);
    expect(issuedAtAcceptable(s + 365 * 86_400, now)).toBe(false);
    for (const bad of [undefined, '0', null, Number.NaN, Number.POSITIVE_INFINITY]) expect(issuedAtAcceptable(bad, now)).toBe(false);
  });
});

describe('checkJwtTimes', () => {
  it('accepts what the server signs: exp = iat + the lifetime, iat now or a little ahead', () => {
    expect(refused({ iat: s, exp: s + 3600 })).toBeUndefined();
    expect(refused({ iat: s + 60, exp: s + 60 + 3600 })).toBeUndefined();
    expect(refused({ iat: s - 10, exp: s + 890 }, 900_000)).toBeUndefined();
    // A lifetime that is not whole seconds is signed rounded down.
    expect(refused({ iat: s, exp: s + 1 }, 1_500)).toBeUndefined();
  });

  it('refuses with 401 UNAUTHORIZED: iat too far ahead, lifetime past the configured one, iat or exp missing', () => {
    expect(refused({ iat: s + 61, exp: s + 61 + 600 })).toBe('UNAUTHORIZED');
    expect(refused({ iat: s, exp: s + 3601 })).toBe('UNAUTHORIZED');
    expect(refused({ iat: s, exp: s + 901 }, 900_000)).toBe('UNAUTHORIZED');
    expect(refused({ iat: s, exp: s + 2 }, 1_500)).toBe('UNAUTHORIZED');
    expect(refused({ exp: s + 600 })).toBe('UNAUTHORIZED');
    expect(refused({ iat: s })).toBe('UNAUTHORIZED');
  });
});
