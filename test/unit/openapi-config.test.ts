import { describe, expect, it } from 'vitest';
import { ConfigError, resolveConfig } from '../../packages/server/src/config/index.js';

/** `openapi.public` (docs/api.md, "OpenAPI" and "Configuration"). */
describe('openapi.public', () => {
  it('is true by default and can be switched off', () => {
    expect(resolveConfig({}, {}).openapi).toEqual({ public: true });
    expect(resolveConfig({ openapi: { public: false } }, {}).openapi).toEqual({ public: false });
  });

  it('refuses anything but a boolean, and unknown keys', () => {
    expect(() => resolveConfig({ openapi: { public: 'no' } }, {})).toThrow(ConfigError);
    expect(() => resolveConfig({ openapi: { ui: true } }, {})).toThrow(ConfigError);
  });
});
