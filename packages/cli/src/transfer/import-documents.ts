import type { Document, DocumentInput, VellumClient } from '@vellum/client/node';
import { referencesIn, type SchemaDef } from './schema-walk.js';
import { fieldsOf, type DocumentLine } from './transfer-format.js';
import { errorText, isItemFailure, ItemError } from './error-text.js';
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
 * The documents half of an import (docs/cli.md, "Export and import"):
 * - an id the target has with the same fields and status is skipped (re-runs change nothing);
 *   with other content, its current version is written over it (PUT);
 * - a new one is replayed: created with its `_id` from its oldest version, then each later version
 *   written in turn (PUT), so the target has the history too;
 * - a version referencing a document the target does not have yet is held back: the document is
 *   created without those fields, and its remaining versions are written by `finish()`, once the
 *   rest of the file is in;
 * - an earlier version the target refuses is left out of the history (`versionsLeftOut`).
 */
export class DocumentImporter {
  private readonly schemas: Map<string, SchemaDef>;
  /** Ids known to exist on the target, by type: written by this import or found there. */
  private readonly present = new Set<string>();
  private readonly deferred: Deferred[] = [];
  /** Earlier versions the target refused, left out of the histories. */
  versionsLeftOut = 0;

  /** `locale` is `*` for a localized export: every read and write carries all locales' values. */
  constructor(
    private readonly client: VellumClient,
    schemas: readonly SchemaDef[],
    private readonly locale?: string,
  ) {
    this.schemas = new Map(schemas.map((s) => [s.name, s]));
  }

  async write(line: DocumentLine): Promise<DocumentOutcome> {
    const { type, document } = line;
    const schema = this.schemas.get(type);
    if (!schema) throw new ItemError(`the target has no type ${type}`);
    const current: Version = { _status: document._status, data: fieldsOf(document) };

    // 1. Already there: skipped when equal, replaced when not.
    const existing = await this.find(type, document._id);
    if (existing) {
      this.present.add(key(type, document._id));
      if (existing._status === current._status && jsonEqual(fieldsOf(existing), current.data)) return 'skipped';
      await whenNotLimited(() => this.put(type, document._id, current));
      return 'updated';
    }

    // 2. New: created from the oldest version the target accepts, without references to what is not there yet.
    const versions: Version[] = [...line.revisions.map((r) => ({ _status: r._status, data: r.data })), current];
    let i = 0;
    for (; ; i++) {
      const v = versions[i]!;
      const missing = await this.missingFields(schema, v.data);
      const last = i === versions.length - 1;
      const body = { _id: document._id, _status: v._status, ...without(v.data, missing) } as DocumentInput<Record<string, unknown>>;
      if (!(await this.writeVersion(last, () => this.client.documents(type).create(body, { locale: this.locale })))) continue;
      this.present.add(key(type, document._id));
      if (missing.size === 0) break;
      // 3. Its first version waits whole for what it references, with the versions after it.
      this.deferred.push({ type, id: document._id, versions: last ? [v] : versions.slice(i + 1) });
      return 'deferred';
    }

    // 4. The later versions in turn, until one references what is not there yet: that one and the rest wait.
    for (let j = i + 1; j < versions.length; j++) {
      if ((await this.missingFields(schema, versions[j]!.data)).size > 0) {
        this.deferred.push({ type, id: document._id, versions: versions.slice(j) });
        return 'deferred';
      }
      await this.writeVersion(j === versions.length - 1, () => this.put(type, document._id, versions[j]!));
    }
    return 'created';
  }

  /** Writes the versions held back; each document's outcome is reported as it is done. */
  async finish(report: (type: string, id: string, error?: string) => void): Promise<void> {
    for (const d of this.deferred.splice(0)) {
      try {
        for (const [i, v] of d.versions.entries()) await this.writeVersion(i === d.versions.length - 1, () => this.put(d.type, d.id, v));
        report(d.type, d.id);
      } catch (err) {
        if (!isItemFailure(err)) throw err;
        report(d.type, d.id, errorText(err));
      }
    }
  }

  /**
   * Writes one version. An earlier version the target's schemas refuse (422: a field removed
   * since, a rule made stricter, a reference to a document deleted since) is left out of the
   * history and counted; the current version's refusal is the document's failure.
   */
  private async writeVersion(current: boolean, write: () => Promise<unknown>): Promise<boolean> {
    try {
      await whenNotLimited(write);
      return true;
    } catch (err) {
      if (current || (err as { status?: unknown }).status !== 422) throw err;
      this.versionsLeftOut++;
      return false;
    }
  }

  /** Whether every document `data` references is on the target: a pending draft waits until then. */
  async referencesPresent(type: string, data: Record<string, unknown>): Promise<boolean> {
    const schema = this.schemas.get(type);
    return schema !== undefined && (await this.missingFields(schema, data)).size === 0;
  }

  /** The top-level fields holding a reference to a document the target does not have. */
  private async missingFields(schema: SchemaDef, data: Record<string, unknown>): Promise<Set<string>> {
    const fields = new Set<string>();
    for (const ref of referencesIn(schema, data, this.locale !== undefined)) {
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
      return (await whenNotLimited(() => this.client.documents(type).get(id, { locale: this.locale }))) as Document;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  private async put(type: string, id: string, v: Version): Promise<void> {
    const body = { _status: v._status, ...v.data } as DocumentInput<Record<string, unknown>>;
    await this.client.documents(type).replace(id, body, { locale: this.locale });
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
