import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { getSettings, updateSettings } from '../../../domain/settings/instance-settings.js';
import { studioConfig, studioStructure } from '../../../domain/settings/studio-config.js';
import { listSchemas } from '../../../domain/schemas/list-schemas.js';
import type { Services } from '../../../domain/services.js';
import { requirePermission } from '../../../domain/access/policy.js';
import { data, errorResponses, Nullable } from '../../schemas/common.js';

const Schema = Type.Object({
  name: Type.String(),
  title: Type.String(),
  type: Type.String(),
  public: Type.Boolean(),
  fields: Type.Array(Type.Any()),
  jsonSchema: Type.Record(Type.String(), Type.Unknown()),
  preview: Type.Optional(Type.Object({ url: Type.String() })),
  groups: Type.Optional(Type.Array(Type.Object({ name: Type.String(), title: Type.Optional(Type.String()) }))),
});

/** The configured locales (docs/localization.md, "Configuration"); absent or null where content has one language. */
const Locales = Type.Object({
  default: Type.String(),
  list: Type.Array(Type.Object({ code: Type.String(), name: Type.String(), fallback: Type.Optional(Type.String()) })),
  chains: Type.Record(Type.String(), Type.Array(Type.String())),
});

const Settings = Type.Object(
  {
    mfaRequired: Type.Boolean(),
    siteName: Type.String({ maxLength: 100 }),
    publicUrl: Nullable(Type.String({ maxLength: 500 })),
    defaultLocale: Type.String({ maxLength: 35 }),
  },
  { additionalProperties: false },
);
const SettingsPatch = Type.Partial(Settings, { additionalProperties: false });
const StudioConfig = Type.Object({
  siteName: Type.String(),
  defaultLocale: Type.String(),
  branding: Type.Record(Type.String(), Type.Unknown()),
  pageSize: Type.Integer(),
  features: Type.Record(Type.String(), Type.Boolean()),
  permissions: Type.Array(Type.String()),
  schemaActions: Type.Array(Type.String()),
  auditEvents: Type.Array(Type.String()),
  webhookEvents: Type.Array(Type.String()),
  locales: Nullable(Locales),
});
const Structure = Type.Array(
  Type.Object({
    title: Type.String(),
    items: Type.Array(Type.Object({ kind: Type.String(), schema: Type.String(), title: Type.String() })),
  }),
);

export async function configRoutes(app: FastifyInstance, { svc }: { svc: Services }) {
  app.get(
    '/config/settings',
    { config: { auth: true }, schema: { response: { 200: data(Settings), ...errorResponses } } },
    async (req) => ({
      data: await getSettings(svc, req.principal),
    }),
  );
  app.put<{ Body: Static<typeof SettingsPatch> }>(
    '/config/settings',
    {
      config: { auth: true, permission: (p) => requirePermission(p, 'settings:write') },
      schema: { body: SettingsPatch, response: { 200: data(Settings), ...errorResponses } },
    },
    async (req) => ({ data: await updateSettings(svc, req.principal, req.body) }),
  );
  app.get(
    '/config/studio',
    { config: { auth: true }, schema: { response: { 200: data(StudioConfig), ...errorResponses } } },
    async (req) => ({
      data: await studioConfig(svc, req.principal),
    }),
  );
  app.get(
    '/config/structure',
    { config: { auth: true }, schema: { response: { 200: data(Structure), ...errorResponses } } },
    async (req) => ({
      data: studioStructure(svc, req.principal),
    }),
  );

  // Public: schemas hold no secrets (docs/api.md, "Schemas").
  // `meta.locales`: the locales localized fields (`localized: true`) hold values in.
  const SchemaList = Type.Object({ data: Type.Array(Schema), meta: Type.Optional(Type.Object({ locales: Locales })) });
  app.get('/config/schemas', { schema: { response: { 200: SchemaList, ...errorResponses } } }, async () => ({
    data: listSchemas(svc.schemas),
    ...(svc.config.locales ? { meta: { locales: svc.config.locales } } : {}),
  }));
}
