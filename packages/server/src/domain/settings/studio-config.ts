import { AUDIT_EVENTS } from '../audit/audit-events.js';
import { CONTENT_ACTIONS, FIXED_PERMISSIONS } from '../access/permissions.js';
import { canOnSchema, requirePermission } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import type { Services } from '../services.js';
import { WEBHOOK_EVENTS } from '../webhooks/webhook-events.js';
import { readSettings } from './instance-settings.js';

export interface StructureItem {
  kind: 'list' | 'singleton';
  schema: string;
  title: string;
}

export interface StructureGroup {
  title: string;
  items: StructureItem[];
}

/**
 * `GET /config/studio` (`studio:access`): what the studio needs to draw itself. The permission
 * list, the audit events and the webhook events come from the server's own lists, so the studio keeps no copy that
 * could fall behind (docs/api.md, "Instance settings and studio configuration").
 */
export async function studioConfig(svc: Services, actor: Principal) {
  requirePermission(actor, 'studio:access');
  const settings = await readSettings(svc);
  const studio = (svc.config.studio ?? {}) as { branding?: Record<string, unknown>; pageSize?: number; features?: Record<string, boolean> };
  return {
    siteName: settings.siteName,
    defaultLocale: settings.defaultLocale,
    branding: { name: settings.siteName, logoUrl: null, primaryColor: '#3b5bdb', ...studio.branding },
    pageSize: studio.pageSize ?? 20,
    // Features the instance has today; later features switch theirs on. `oauth2` and `mail` say
    // what the server does (the studio asks for grants only with the one, and says who gets
    // invitation links with the other), so the config's `studio.features` cannot change them.
    features: {
      documents: true,
      users: true,
      apiTokens: true,
      audit: svc.config.security.auditLog.enabled,
      ...studio.features,
      oauth2: svc.config.oauth2.enabled,
      mail: svc.mailer.configured,
    },
    // The fixed permissions in the server's order; `<schema>:<action>` adds these actions and `*`.
    permissions: [...FIXED_PERMISSIONS],
    schemaActions: [...CONTENT_ACTIONS],
    auditEvents: [...AUDIT_EVENTS],
    // What a webhook may subscribe to, for the studio's event picker (patterns are built from these).
    webhookEvents: [...WEBHOOK_EVENTS],
    // The content locales and their fallbacks (docs/localization.md); null: content has one language.
    locales: svc.config.locales ?? null,
  };
}

/**
 * `GET /config/structure` (`studio:access`): the navigation, from `studio.structure` or one
 * "Content" group with every schema; entries the caller may not read are left out.
 */
export function studioStructure(svc: Services, actor: Principal): StructureGroup[] {
  requirePermission(actor, 'studio:access');
  const configured = (
    svc.config.studio as { structure?: Array<{ title: string; items: Array<string | { schema: string; title?: string }> }> } | undefined
  )?.structure;
  const groups = configured ?? [{ title: 'Content', items: svc.schemas.list().map((s) => s.name) }];
  return groups
    .map((g) => ({
      title: g.title,
      items: g.items
        .map((item) => (typeof item === 'string' ? { schema: item } : item))
        .map((item) => ({ item, schema: svc.schemas.get(item.schema) }))
        .filter(({ schema }) => schema !== undefined && canOnSchema(actor, schema.name, 'read'))
        .map(({ item, schema }) => ({
          kind: schema!.singleton ? ('singleton' as const) : ('list' as const),
          schema: schema!.name,
          title: ('title' in item && item.title) || schema!.title,
        })),
    }))
    .filter((g) => g.items.length > 0);
}
