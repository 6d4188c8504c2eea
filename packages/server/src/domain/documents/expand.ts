import type { FieldDef } from '../../config/types.js';
import { errors } from '../../errors.js';
import { specOf } from '../../field-types/index.js';
import { findDocumentsByIds } from '../../storage/documents/document-rows.js';
import { findDrafts } from '../../storage/documents/draft-rows.js';
import { canReadMedia, readScope, type DocumentAccessMode } from '../access/policy.js';
import { findMediaByIds } from '../../storage/media/media-store.js';
import { toApiMedia, type ApiMedia } from '../media/media-view.js';
import type { Principal } from '../access/principal.js';
import type { SchemaRegistry } from '../schemas/schema-registry.js';
import type { Services } from '../services.js';
import { toApiDocument, toDraftView, type ApiDocument } from './document-view.js';
import { localized, type DocumentLocale } from '../locales/document-locales.js';

/** One reference to expand: where it sits in the document, what it may point at, what to expand below it. */
interface ExpandNode {
  path: string[];
  /** Documents behind reference fields, or media records behind image and file fields. */
  kind: 'documents' | 'media';
  targets: string[];
  children: ExpandNode[];
}

const MAX_EXPAND_PATHS = 20;
const MAX_DEPTH = 5;

/**
 * Parses `expand=author,tags,author.company` into a tree. Dots walk through object fields and
 * across references; every step must be a field of the schema reached so far.
 */
export function parseExpand(registry: SchemaRegistry, type: string, raw: string | undefined): ExpandNode[] {
  if (!raw) return [];
  const paths = raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (paths.length > MAX_EXPAND_PATHS) throw badExpand(`at most ${MAX_EXPAND_PATHS} paths`);
  const roots: ExpandNode[] = [];
  for (const dotted of paths) addPath(registry, [type], dotted.split('.'), roots, dotted, 0);
  return roots;
}

/**
 * `fields` plus the top-level fields an expansion starts from: `?fields=title&expand=author`
 * returns the author expanded rather than dropping it (docs/api.md, "List queries").
 */
export function fieldsWithExpanded(fields: readonly string[] | undefined, roots: readonly ExpandNode[]): string[] | undefined {
  if (!fields) return undefined;
  return [...new Set([...fields, ...roots.map((n) => n.path[0])])];
}

function addPath(registry: SchemaRegistry, types: string[], segments: string[], nodes: ExpandNode[], dotted: string, depth: number): void {
  if (depth >= MAX_DEPTH) throw badExpand(`${dotted}: at most ${MAX_DEPTH} levels`);
  const local: string[] = [];
  let fields: readonly FieldDef[] = mergedFields(registry, types);
  for (let i = 0; i < segments.length; i++) {
    const field = fields.find((f) => f.name === segments[i]);
    if (!field) throw badExpand(`${dotted}: unknown field ${segments[i]}`);
    local.push(field.name);
    const spec = specOf(field);
    if (spec.childFields) {
      fields = spec.childFields(field);
      if (i === segments.length - 1) throw badExpand(`${dotted}: ${field.name} is not a reference`);
      continue;
    }
    const leaf = spec.itemOf?.(field) ?? field;
    const expands = leaf && specOf(leaf).expands;
    const rest = segments.slice(i + 1);
    const key = local.join('.');
    if (expands === 'media') {
      if (rest.length > 0) throw badExpand(`${dotted}: ${field.name} holds media; nothing expands below it`);
      if (!nodes.some((n) => n.path.join('.') === key)) nodes.push({ path: [...local], kind: 'media', targets: [], children: [] });
      return;
    }
    if (expands !== 'documents') throw badExpand(`${dotted}: ${field.name} is not a reference`);
    let node = nodes.find((n) => n.path.join('.') === key);
    if (!node) {
      node = { path: [...local], kind: 'documents', targets: Array.isArray(leaf.to) ? [...leaf.to] : [leaf.to as string], children: [] };
      nodes.push(node);
    }
    if (rest.length > 0) addPath(registry, node.targets, rest, node.children, dotted, depth + 1);
    return;
  }
}

function mergedFields(registry: SchemaRegistry, types: string[]): FieldDef[] {
  return types.flatMap((t) => registry.get(t)?.fields ?? []);
}

function badExpand(message: string) {
  return errors.invalidInput(`expand: ${message}`, [{ field: 'expand', message }]);
}

interface Slot {
  holder: Record<string, unknown> | unknown[];
  key: string | number;
  id: string;
  node: ExpandNode;
}

/**
 * Replaces reference ids by the referenced documents, in place, level by level: one query per
 * level for all documents and paths together, never one per document. A target the caller could
 * not read directly (or that is missing, or of a type the field does not allow) stays an id.
 */
export async function expandDocuments(
  svc: Services,
  actor: Principal,
  mode: DocumentAccessMode,
  docs: ApiDocument[],
  roots: ExpandNode[],
  /** `perspective=drafts`: a referenced document with a pending draft expands as its draft. */
  drafts = false,
  /** Referenced documents are served in the locale the referring ones are (docs/localization.md). */
  locale?: DocumentLocale,
): Promise<void> {
  let level: Array<{ doc: Record<string, unknown>; nodes: ExpandNode[] }> = docs.map((doc) => ({ doc, nodes: roots }));
  const scopes = new Map<string, 'all' | 'published' | 'none'>();
  const owned = new WeakSet<object>();
  const scopeOf = (type: string) => {
    let s = scopes.get(type);
    if (!s) {
      const schema = svc.schemas.get(type);
      s = schema ? readScope(actor, schema, mode, svc.config.documents.publicRead) : 'none';
      scopes.set(type, s);
    }
    return s;
  };

  while (level.length > 0) {
    const slots: Slot[] = [];
    for (const { doc, nodes } of level) for (const node of nodes) collectSlots(doc, node, slots, owned);
    if (slots.length === 0) return;
    await expandMedia(
      svc,
      actor,
      slots.filter((s) => s.node.kind === 'media'),
    );
    const docSlots = slots.filter((s) => s.node.kind === 'documents');
    const ids = [...new Set(docSlots.map((s) => s.id))];
    const found = new Map((await findDocumentsByIds(svc.database, ids)).map((d) => [d.id, d]));
    const pending = drafts ? new Map((await findDrafts(svc.database, ids)).map((d) => [d.id, d])) : undefined;
    const next: typeof level = [];
    // One expanded object per (node, id): the same target reached through different paths may expand differently below.
    const made = new Map<ExpandNode, Map<string, ApiDocument>>();
    for (const slot of docSlots) {
      const target = found.get(slot.id);
      if (!target || !slot.node.targets.includes(target.type)) continue;
      const scope = scopeOf(target.type);
      if (scope === 'none' || (scope === 'published' && target.status !== 'published')) continue;
      let perNode = made.get(slot.node);
      if (!perNode) made.set(slot.node, (perNode = new Map()));
      let expanded = perNode.get(slot.id);
      if (!expanded) {
        // A draft only for callers who may read every status of the target's type.
        const draft = scope === 'all' && target.status === 'published' ? pending?.get(target.id) : undefined;
        expanded = draft
          ? toDraftView({ ...target, rev: draft.rev, updatedAt: draft.updatedAt, updatedBy: draft.updatedBy, data: draft.data })
          : toApiDocument(target);
        if (locale) localized(svc, expanded, locale);
        perNode.set(slot.id, expanded);
        if (slot.node.children.length > 0) next.push({ doc: expanded, nodes: slot.node.children });
      }
      (slot.holder as Record<string | number, unknown>)[slot.key] = expanded;
    }
    level = next;
  }
}

/** Media ids become media records (one query for the level) when the caller may read media. */
async function expandMedia(svc: Services, actor: Principal, slots: Slot[]): Promise<void> {
  if (slots.length === 0 || !canReadMedia(actor, svc.config.media.publicRead)) return;
  const found = new Map((await findMediaByIds(svc.database, [...new Set(slots.map((s) => s.id))])).map((m) => [m.id, m]));
  const made = new Map<string, ApiMedia>();
  for (const slot of slots) {
    const m = found.get(slot.id);
    if (!m) continue;
    let view = made.get(m.id);
    if (!view) made.set(m.id, (view = toApiMedia(svc.config, m)));
    (slot.holder as Record<string | number, unknown>)[slot.key] = view;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The ids at a node's path, walking objects and lists of objects (blocks) on the way. Containers
 * on the path are copied once per expansion (`owned`), so an expanded document never shares an
 * object or list with the stored one, and paths through the same container find the same copy.
 */
function collectSlots(holder: Record<string, unknown>, node: ExpandNode, out: Slot[], owned: WeakSet<object>, depth = 0): void {
  const key = node.path[depth];
  const value = holder[key];
  const own = <T extends object>(v: T, copy: () => T): T => {
    if (owned.has(v)) return v;
    const made = copy();
    owned.add(made);
    holder[key] = made;
    return made;
  };
  if (depth === node.path.length - 1) {
    if (typeof value === 'string') out.push({ holder, key, id: value, node });
    else if (Array.isArray(value)) {
      const list = own(value, () => [...value]);
      list.forEach((v, i) => {
        if (typeof v === 'string') out.push({ holder: list, key: i, id: v, node });
      });
    }
    return;
  }
  if (Array.isArray(value)) {
    const list = own(value, () => [...value]);
    list.forEach((item, i) => {
      if (!isObject(item)) return;
      const copy = owned.has(item) ? item : { ...item };
      owned.add(copy);
      list[i] = copy;
      collectSlots(copy, node, out, owned, depth + 1);
    });
  } else if (isObject(value)) {
    collectSlots(
      own(value, () => ({ ...value })),
      node,
      out,
      owned,
      depth + 1,
    );
  }
}
