import type { Document, VellumClient } from '@vellum/client';
import { referencesIn, type SchemaDef } from './schema-walk.js';
import { fieldsOf, type DocumentLine } from './transfer-format.js';
import { errorText } from './error-text.js';
import { isNotFound } from './is-not-found.js';
import { whenNotLimited } from './when-not-limited.js';

export type DocumentOutcome = 'created' | 'updated' | 'skipped' | 'deferred';

interface Version {
  _status: string;
  data: Record<string, unknown>;
}

/** A document whose later versions wait for the documents they reference (a cycle, or a reference forward). */
interface Deferred {
  type: string;
  id: string;
  versions: Version[];
}

/**
 * The documents half of an import (docs/cli-transfer.md):
 * - an id the target has with the same fields and status is skipped (re-runs change nothing);
 *   with other content, its current version is written over it (PUT);
 * - a new one is replayed: created with its `_id` from its oldest version, then each later version
 *   written in turn (PUT), so the target has the history too;
 * - a version referencing a document the target does not have yet is held back: the document is
 *   created without those fields, and its remaining versions are written by `finish()`, once the
 *   rest of the file is in.
 */
export class DocumentImporter {
  private readonly schemas: Map<string, SchemaDef>;
  /** Ids known to exist on the target, by type: written by this import or found there. */
  private readonly present = new Set<string>();
  private readonly deferred: Deferred[] = [];

  constructor(
    private readonly client: VellumClient,
    schemas: readonly SchemaDef[],
  ) {
    this.schemas = new Map(schemas.map((s) => [s.name, s]));
  }

  async write(line: DocumentLine): Promise<DocumentOutcome> {
    const { type, document } = line;
    const schema = this.schemas.get(type);
    if (!schema) throw new Error(`the target has no type ${type}`);
    const current: Version = { _status: document._status, data: fieldsOf(document) };

    // 1. Already there: skipped when equal, replaced when not.
    const existing = await this.find(type, document._id);
    if (existing) {
      this.present.add(key(type, document._id));
      if (existing._status === current._status && jsonEqual(fieldsOf(existing), current.data)) return 'skipped';
      await this.put(type, document._id, current);
      return 'updated';
    }

    // 2. New: the history up to the first version that references what is not there yet.
    const versions: Version[] = [...line.revisions.map((r) => ({ _status: r._status, data: r.data })), current];
    let waitFrom = versions.length;
    for (let i = 0; i < versions.length && waitFrom === versions.length; i++) {
      if ((await this.missingFields(schema, versions[i]!.data)).size > 0) waitFrom = i;
    }
    const first = versions[0]!;
    const missing = waitFrom === 0 ? await this.missingFields(schema, first.data) : new Set<string>();
    await whenNotLimited(() => this.client.create(type, { _id: document._id, _status: first._status, ...without(first.data, missing) }));
    this.present.add(key(type, document._id));
    for (const v of versions.slice(1, waitFrom)) await this.put(type, document._id, v);
    if (waitFrom === versions.length) return 'created';

    // 3. The rest waits; when the first version itself waited, it is written whole later.
    const rest = waitFrom === 0 ? (versions.length > 1 ? versions.slice(1) : [first]) : versions.slice(waitFrom);
    this.deferred.push({ type, id: document._id, versions: rest });
    return 'deferred';
  }

  /** Writes the versions held back; each document's outcome is reported as it is done. */
  async finish(report: (type: string, id: string, error?: string) => void): Promise<void> {
    for (const d of this.deferred.splice(0)) {
      try {
        for (const v of d.versions) await this.put(d.type, d.id, v);
        report(d.type, d.id);
      } catch (err) {
        report(d.type, d.id, errorText(err));
      }
    }
  }

  /** The top-level fields holding a reference to a document the target does not have. */
  private async missingFields(schema: SchemaDef, data: Record<string, unknown>): Promise<Set<string>> {
    const fields = new Set<string>();
    for (const ref of referencesIn(schema, data)) {
      if (!fields.has(ref.field) && !(await this.exists(ref.id, ref.to))) fields.add(ref.field);
    }
    return fields;
  }

  private async exists(id: string, types: readonly string[]): Promise<boolean> {
    for (const type of types) {
      if (this.present.has(key(type, id))) return true;
      if (await this.find(type, id)) {
        this.present.add(key(type, id));
        return true;
      }
    }
    return false;
  }

  private async find(type: string, id: string): Promise<Document | undefined> {
    try {
      return await whenNotLimited(() => this.client.get(type, id));
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  private async put(type: string, id: string, v: Version): Promise<void> {
    const path = `/documents/${encodeURIComponent(type)}/${encodeURIComponent(id)}`;
    await whenNotLimited(() => this.client.request('PUT', path, { _status: v._status, ...v.data }));
  }
}

const key = (type: string, id: string) => `${type}\u0000${id}`;

function without(data: Record<string, unknown>, fields: ReadonlySet<string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([k]) => !fields.has(k)));
}

/** Deep equality of JSON values, whatever the order of object keys (the two servers may store them differently). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => jsonEqual(x, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = Object.keys(ao);
  return keys.length === Object.keys(bo).length && keys.every((k) => k in bo && jsonEqual(ao[k], bo[k]));
}
