import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  clearTokens,
  configDir,
  credentialsPath,
  readCredentials,
  saveProfile,
  saveRotatedTokens,
} from '../../packages/cli/src/profiles/credentials.js';

describe('the CLI credentials file', () => {
  let root: string;
  let env: Record<string, string>;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'vellum-creds-'));
    env = { VELLUM_CONFIG_DIR: join(root, 'cfg') };
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('lives in VELLUM_CONFIG_DIR, else $XDG_CONFIG_HOME/vellum, else ~/.config/vellum', () => {
    expect(configDir({ VELLUM_CONFIG_DIR: '/a', XDG_CONFIG_HOME: '/b', HOME: '/c' })).toBe('/a');
    expect(configDir({ XDG_CONFIG_HOME: '/b', HOME: '/c' })).toBe('/b/vellum');
    expect(configDir({ HOME: '/c' })).toBe('/c/.config/vellum');
    expect(credentialsPath({ HOME: '/c' })).toBe('/c/.config/vellum/credentials.json');
  });

  it('an absent file is no profiles; the first write creates the folder 0700 and the file 0600, leaving no temp file', () => {
    expect(readCredentials(env)).toEqual({ current: 'default', profiles: {} });
    saveProfile('prod', { url: 'https://cms.example/api' }, env);
    expect(statSync(env.VELLUM_CONFIG_DIR).mode & 0o777).toBe(0o700);
    expect(statSync(credentialsPath(env)).mode & 0o777).toBe(0o600);
    expect(readdirSync(env.VELLUM_CONFIG_DIR)).toEqual(['credentials.json']);
    expect(readCredentials(env)).toEqual({ current: 'prod', profiles: { prod: { url: 'https://cms.example/api' } } });
  });

  it('stores what vellum login will store, and saveRotatedTokens replaces only the token triple', () => {
    saveProfile(
      'prod',
      {
        url: 'https://cms.example/api',
        accessToken: 'at-1',
        refreshToken: 'rt-1',
        expiresAt: '2026-01-01T00:00:00.000Z',
        clientId: 'service-cli',
        tokenType: 'oauth',
        user: { id: 'u1', username: 'ada' },
      },
      env,
    );
    saveRotatedTokens('prod', { accessToken: 'at-2', refreshToken: 'rt-2', expiresAt: '2026-01-01T00:15:00.000Z' }, env);
    expect(readCredentials(env).profiles.prod).toEqual({
      url: 'https://cms.example/api',
      accessToken: 'at-2',
      refreshToken: 'rt-2',
      expiresAt: '2026-01-01T00:15:00.000Z',
      clientId: 'service-cli',
      tokenType: 'oauth',
      user: { id: 'u1', username: 'ada' },
    });
    clearTokens('prod', env);
    expect(readCredentials(env).profiles.prod).toEqual({ url: 'https://cms.example/api' });
  });

  it('a rewrite keeps mode 0600 even when the old file was readable by others', () => {
    saveProfile('a', { url: 'http://a.example/api' }, env);
    writeFileSync(credentialsPath(env), readFileSync(credentialsPath(env)), { mode: 0o644 });
    saveProfile('b', { url: 'http://b.example/api' }, env);
    expect(statSync(credentialsPath(env)).mode & 0o777).toBe(0o600);
    expect(Object.keys(readCredentials(env).profiles)).toEqual(['a', 'b']);
  });

  it('a file that is not JSON, or has no profiles, is an error naming it (exit 78), never overwritten silently', () => {
    mkdirSync(env.VELLUM_CONFIG_DIR, { recursive: true });
    writeFileSync(credentialsPath(env), '{oops');
    expect(() => readCredentials(env)).toThrow(
      expect.objectContaining({ exitCode: 78, message: expect.stringContaining('is not valid JSON') }),
    );
    expect(() => saveProfile('x', { url: 'http://x/api' }, env)).toThrow(/not valid JSON/);
    expect(readFileSync(credentialsPath(env), 'utf8')).toBe('{oops');
    writeFileSync(credentialsPath(env), '[]');
    expect(() => readCredentials(env)).toThrow(/no "profiles" object/);
  });

  it('refuses profile names that are not plain words', () => {
    expect(() => saveProfile('../evil', { url: 'http://x/api' }, env)).toThrow(expect.objectContaining({ exitCode: 64 }));
  });
});
