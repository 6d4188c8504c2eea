import { describe, expect, it } from 'vitest';
import { isS256Challenge, s256Challenge, verifierMatches } from '../../packages/server/src/domain/oauth2/pkce.js';

// RFC 7636 Appendix B: the worked S256 example.
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

describe('PKCE S256 (RFC 7636)', () => {
  it("BASE64URL(SHA256(verifier)) gives Appendix B's challenge", () => {
    expect(s256Challenge(VERIFIER)).toBe(CHALLENGE);
    expect(verifierMatches(VERIFIER, CHALLENGE)).toBe(true);
  });

  it('another verifier does not match', () => {
    expect(verifierMatches(`${VERIFIER.slice(0, -1)}A`, CHALLENGE)).toBe(false);
  });

  it('a verifier outside 43–128 unreserved characters (§4.1) never matches, even when it hashes to the challenge', () => {
    const short = 'a'.repeat(42);
    const long = 'a'.repeat(129);
    const badChar = `${'a'.repeat(42)}+`;
    for (const v of [short, long, badChar]) expect(verifierMatches(v, s256Challenge(v))).toBe(false);
    for (const v of ['a'.repeat(43), `${'a'.repeat(124)}-._~`]) expect(verifierMatches(v, s256Challenge(v))).toBe(true);
  });

  it('a challenge is exactly 43 base64url characters (§4.2)', () => {
    expect(isS256Challenge(CHALLENGE)).toBe(true);
    expect(isS256Challenge(CHALLENGE.slice(1))).toBe(false);
    expect(isS256Challenge(`${CHALLENGE}=`)).toBe(false);
    expect(isS256Challenge(`${CHALLENGE.slice(1)}+`)).toBe(false);
  });
});
