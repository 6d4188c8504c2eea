import type { ConfigReader } from './reader.js';
import type { VellumConfig } from './types.js';

/** `server.compression` (docs/api.md, "Compression"): `false` turns it off; `{enabled, minBytes}` (defaults: on, 1024). */
export function compressionSection(r: ConfigReader, raw: unknown): VellumConfig['server']['compression'] {
  if (raw === false) return { enabled: false, minBytes: 1024 };
  const o = r.object('server.compression', raw, ['enabled', 'minBytes']);
  return {
    enabled: r.bool('server.compression.enabled', o.enabled, true),
    minBytes: r.int('server.compression.minBytes', o.minBytes, { def: 1024, min: 0 }) as number,
  };
}
