import type { FieldCondition } from './field-conditions.js';
import type { Transport } from './transport.js';

/** Instance settings (docs/api.md, "Instance settings and studio configuration"). */
export interface Settings {
  mfaRequired: boolean;
  siteName: string;
  publicUrl: string | null;
  defaultLocale: string;
}

export interface StudioConfig {
  siteName: string;
  defaultLocale: string;
  branding: Record<string, unknown>;
  pageSize: number;
  /**
   * What the instance offers. `oauth2` (the authorization server is on: `oauth2.enabled`) and `mail`
   * (mail can be sent: `mail.smtpUrl`) say what the server does; the config's `studio.features`
   * adds others.
   */
  features: Record<string, boolean> & { oauth2: boolean; mail: boolean };
  /** The fixed permission strings, in the server's order (the part before `:` is the resource). */
  permissions: string[];
  /** The content actions a `<schema>:<action>` permission may name (besides `*`). */
  schemaActions: string[];
  /** Every audit event kind the server records. */
  auditEvents: string[];
  /** The events a webhook may subscribe to (`document.published`…); `<resource>.*` and `*` are built from them. */
  webhookEvents: string[];
  /** The content locales (docs/localization.md); null where content has one language. */
  locales: ContentLocales | null;
}

/** The configured content locales: the default (the first), each with its fallback, and each chain a read follows, itself first. */
export interface ContentLocales {
  default: string;
  list: Array<{ code: string; name: string; fallback?: string }>;
  chains: Record<string, string[]>;
}

export interface StructureGroup {
  title: string;
  items: Array<{ kind: 'list' | 'singleton'; schema: string; title: string }>;
}

/** What the server's field-type table says about showing a field (docs/api.md, "Schemas"). */
export interface FieldStudioHints {
  /** The studio control by name (`string`, `text`, `slug`, `media`, `blocks`, …). */
  control: string;
  /** Offered as a sort on the document list. */
  sortable: boolean;
  /** Shown as a column of the document list. */
  column: boolean;
  /** Offered as a filter on the document list: a choice of its options, or of the documents it may point at. */
  listFilter?: 'options' | 'documents';
  /** The HTML input type of the one-line control (`email`, `url`, `date`); absent: `text`. */
  input?: string;
  /** The number control's step (`1` for whole numbers); absent: any number. */
  step?: number;
  /** A stored string shown, not edited, in the browser's locale: `date` a day, `datetime` a moment. */
  display?: 'date' | 'datetime';
  /** The MIME prefixes a media field takes when it names no `accept` (`['image/']`). */
  accept?: string[];
  /** A new item of a list of this type starts as this value (`{}` for an object); absent: no value. */
  emptyValue?: unknown;
  /** The control of an array whose items are of this type (`referenceList`); the array's own `control` already names it. */
  listControl?: string;
  /** `orderBy` takes it. */
  orderable: boolean;
  /** `natural=true` orders it: text people read, "Chapter 2" before "Chapter 10" (the studio's list asks for it). */
  naturalOrder: boolean;
  /** The `filter[field][op]` operators it takes. */
  filterOperators: string[];
}

/** A field as configured, its nested fields included, each with its `studio` hints. */
export interface FieldDefinition {
  name: string;
  type: string;
  studio?: FieldStudioHints;
  /** One value per content locale (docs/localization.md). */
  localized?: boolean;
  /** The tab of the studio's form it is shown in: a name from the schema's `groups` (top-level fields only). */
  group?: string;
  /** When the studio's form hides the field, or shows it read-only (`conditionHolds`): the form only, not a permission. */
  hidden?: boolean | FieldCondition;
  readOnly?: boolean | FieldCondition;
  [option: string]: unknown;
}

/** A tab of the studio's form (`groups` of a schema): fields name it in their `group`. */
export interface FieldGroupDefinition {
  name: string;
  title?: string;
}

/** A schema of the content model; fields are `{name, title?, type, required?, …}` plus their type's options (docs/api.md, "Schemas"). */
export interface SchemaDefinition {
  name: string;
  title: string;
  type: 'document' | 'singleton';
  public: boolean;
  fields: FieldDefinition[];
  /** The tabs of the studio's form, in order; fields without a `group` are in the first. */
  groups?: FieldGroupDefinition[];
  /**
   * A document of the type as JSON Schema 2020-12, the OpenAPI document's component schema
   * (docs/api.md, "OpenAPI"); references carry `x-vellum-reference`, the types they point at.
   */
  jsonSchema: Record<string, unknown>;
  /** The site's preview page for a document, a template filled in by `documents(type).preview(id)` (docs/preview.md). */
  preview?: { url: string };
}

/** `/config/*`. */
export class ConfigApi {
  constructor(private readonly t: Transport) {}

  async settings(): Promise<Settings> {
    return (await this.t.json<{ data: Settings }>({ method: 'GET', path: '/config/settings' })).data;
  }

  /** `PUT /config/settings`: the fields given change. */
  async updateSettings(settings: Partial<Settings>): Promise<Settings> {
    return (await this.t.json<{ data: Settings }>({ method: 'PUT', path: '/config/settings', json: settings })).data;
  }

  async schemas(): Promise<SchemaDefinition[]> {
    return (await this.t.json<{ data: SchemaDefinition[] }>({ method: 'GET', path: '/config/schemas' })).data;
  }

  /** The content locales (`meta.locales` of `GET /config/schemas`, docs/localization.md); null where content has one language. */
  async locales(): Promise<ContentLocales | null> {
    const res = await this.t.json<{ meta?: { locales?: ContentLocales } }>({ method: 'GET', path: '/config/schemas' });
    return res.meta?.locales ?? null;
  }

  async studio(): Promise<StudioConfig> {
    return (await this.t.json<{ data: StudioConfig }>({ method: 'GET', path: '/config/studio' })).data;
  }

  /** The studio's navigation; entries the caller may not read are left out. */
  async structure(): Promise<StructureGroup[]> {
    return (await this.t.json<{ data: StructureGroup[] }>({ method: 'GET', path: '/config/structure' })).data;
  }
}
