import type { ConfigReader } from './reader.js';
import type { PasskeyConfig } from './types.js';

const HOST = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * `security.passkey {enabled, rpId, rpName, origin}` (docs/api.md, "Passkeys"). Absent or not
 * enabled: passkeys are off. Enabled: `rpId` is a host name (no scheme, port or path), `rpName`
 * a non-empty string and `origin` one or more `scheme://host[:port]` whose host is `rpId` or a
 * subdomain of it, as WebAuthn Level 3 §5.1.3 requires of the calling origin.
 */
export function passkeySection(r: ConfigReader, raw: unknown): PasskeyConfig | undefined {
  if (raw === undefined || raw === null) return undefined;
  const o = r.object('security.passkey', raw, ['enabled', 'rpId', 'rpName', 'origin']);
  const enabled = r.bool('security.passkey.enabled', o.enabled, false);
  const rpId = r.string('security.passkey.rpId', o.rpId)?.toLowerCase();
  const rpName = r.string('security.passkey.rpName', o.rpName, { minLength: 1 });
  const validHost = rpId !== undefined && HOST.test(rpId);
  if (rpId !== undefined && !validHost) r.problem('security.passkey.rpId', `"${rpId}" is not a host name (no scheme, port or path)`);
  const origins = originList(r, o.origin, validHost ? rpId : undefined);
  if (enabled) {
    if (rpId === undefined) r.problem('security.passkey.rpId', 'required when passkeys are enabled');
    if (rpName === undefined) r.problem('security.passkey.rpName', 'required when passkeys are enabled');
    if (o.origin === undefined || o.origin === null || (Array.isArray(o.origin) && o.origin.length === 0))
      r.problem('security.passkey.origin', 'required when passkeys are enabled');
  }
  return { enabled, rpId: rpId ?? '', rpName: rpName ?? '', origins };
}

function originList(r: ConfigReader, raw: unknown, rpId: string | undefined): string[] {
  if (raw === undefined || raw === null) return [];
  const list = typeof raw === 'string' ? [raw] : raw;
  if (!Array.isArray(list) || !list.every((o) => typeof o === 'string')) {
    r.problem('security.passkey.origin', 'expected an origin or a list of origins');
    return [];
  }
  return list.flatMap((value) => {
    const url = parse(value);
    const web = url && (url.protocol === 'https:' || url.protocol === 'http:');
    if (!url || !web || url.pathname !== '/' || url.search || url.hash || url.username || url.password) {
      r.problem('security.passkey.origin', `"${value}" is not an origin (scheme://host[:port], no path)`);
      return [];
    }
    if (rpId && url.hostname !== rpId && !url.hostname.endsWith(`.${rpId}`))
      r.problem('security.passkey.origin', `"${value}" is not on rpId "${rpId}" or a subdomain of it`);
    return [url.origin];
  });
}

function parse(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}
