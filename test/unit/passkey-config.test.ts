import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../packages/server/src/config/index.js';
import { configProblems } from '../helpers/config-problems.js';

const passkey = (p: Record<string, unknown>) => ({ security: { passkey: p } });
const ON = { enabled: true, rpId: 'localhost', rpName: 'Vellum', origin: 'http://localhost:3000' };

describe('security.passkey', () => {
  it('absent: passkeys are off', () => {
    expect(resolveConfig({}, {}).security.passkey).toBeUndefined();
  });

  it('accepts one origin or a list, http://localhost:<port> included; origins lose a trailing slash', () => {
    expect(resolveConfig(passkey(ON), {}).security.passkey).toEqual({
      enabled: true,
      rpId: 'localhost',
      rpName: 'Vellum',
      origins: ['http://localhost:3000'],
    });
    const list = resolveConfig(passkey({ ...ON, rpId: 'example.com', origin: ['https://example.com/', 'https://cms.example.com'] }), {});
    expect(list.security.passkey?.origins).toEqual(['https://example.com', 'https://cms.example.com']);
  });

  it('enabled needs rpId, rpName and an origin', () => {
    expect(configProblems(passkey({ enabled: true }))).toEqual([
      'security.passkey.rpId: required when passkeys are enabled',
      'security.passkey.rpName: required when passkeys are enabled',
      'security.passkey.origin: required when passkeys are enabled',
    ]);
    expect(configProblems(passkey({ ...ON, origin: [] }))).toEqual(['security.passkey.origin: required when passkeys are enabled']);
  });

  it('rpId is a host name: no scheme, port or path', () => {
    for (const rpId of ['https://example.com', 'example.com:443', 'example.com/x', 'exa mple.com'])
      expect(configProblems(passkey({ ...ON, rpId, origin: 'https://example.com' }))[0]).toMatch(
        /^security\.passkey\.rpId: .* is not a host name/,
      );
  });

  it('origins are scheme://host[:port] on the rpId or a subdomain of it', () => {
    expect(configProblems(passkey({ ...ON, origin: 'http://localhost:3000/studio' }))).toEqual([
      'security.passkey.origin: "http://localhost:3000/studio" is not an origin (scheme://host[:port], no path)',
    ]);
    expect(configProblems(passkey({ ...ON, origin: 'localhost:3000' }))[0]).toMatch(/is not an origin/);
    expect(configProblems(passkey({ ...ON, origin: 'https://evil.example' }))).toEqual([
      'security.passkey.origin: "https://evil.example" is not on rpId "localhost" or a subdomain of it',
    ]);
    expect(configProblems(passkey({ ...ON, rpId: 'example.com', origin: 'https://notexample.com' }))[0]).toMatch(/is not on rpId/);
  });

  it('unknown settings are refused', () => {
    expect(configProblems(passkey({ ...ON, rpID: 'x' }))).toEqual(['security.passkey.rpID: unknown setting']);
  });
});
