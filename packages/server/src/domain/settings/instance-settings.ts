import { errors, type ErrorDetail } from '../../errors.js';
import { getInstanceValue, setInstanceValue } from '../../storage/settings/instance-store.js';
import { requirePermission } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Services } from '../services.js';

/** Instance settings: changed at run time through the API, kept in the database, read fresh by every node. */
export interface InstanceSettings {
  /** Every user needs a second factor (enforced by the MFA feature). */
  mfaRequired: boolean;
  /** Shown in the studio and in mails. */
  siteName: string;
  /** Absolute origin used in mailed links; falls back to `server.publicUrl`. */
  publicUrl: string | null;
  /** BCP 47 tag for the studio and mails. */
  defaultLocale: string;
}

const DEFAULTS: InstanceSettings = { mfaRequired: false, siteName: 'Vellum', publicUrl: null, defaultLocale: 'en' };
const KEY = 'settings';
const LOCALE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

export async function readSettings(svc: Services): Promise<InstanceSettings> {
  const raw = await getInstanceValue(svc.database, KEY);
  return raw ? { ...DEFAULTS, ...(JSON.parse(raw) as Partial<InstanceSettings>) } : { ...DEFAULTS };
}

/** `GET /config/settings`: `settings:read`. */
export async function getSettings(svc: Services, actor: Principal): Promise<InstanceSettings> {
  requirePermission(actor, 'settings:read');
  return readSettings(svc);
}

/** `PUT /config/settings`: `settings:write`; changes the fields given, each validated. */
export async function updateSettings(svc: Services, actor: Principal, input: Partial<InstanceSettings>): Promise<InstanceSettings> {
  requirePermission(actor, 'settings:write');
  const details: ErrorDetail[] = [];
  if (input.siteName !== undefined && (input.siteName.trim() === '' || input.siteName.length > 100))
    details.push({ field: 'siteName', message: 'must be 1–100 characters' });
  if (input.defaultLocale !== undefined && !LOCALE.test(input.defaultLocale))
    details.push({ field: 'defaultLocale', message: 'must be a language tag such as en or de-CH' });
  if (input.publicUrl !== undefined && input.publicUrl !== null && !isOrigin(input.publicUrl))
    details.push({ field: 'publicUrl', message: 'must be an http(s) URL without query or fragment' });
  if (details.length > 0) throw errors.validation(details);
  const next = { ...(await readSettings(svc)), ...input };
  if (next.publicUrl) next.publicUrl = next.publicUrl.replace(/\/+$/, '');
  await setInstanceValue(svc.database, KEY, JSON.stringify(next));
  await recordAudit(svc, 'settingsUpdate', { actor, target: 'settings', details: { fields: Object.keys(input).sort() } });
  return next;
}

function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.search && !url.hash;
  } catch {
    return false;
  }
}
