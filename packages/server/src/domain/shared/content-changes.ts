/**
 * Counts content writes, globally and per document type. Caches derived from content (list
 * totals, page anchors, rendered public responses) remember the version they were built at and
 * are ignored once it moved. A write bumps the versions after its transaction commits.
 *
 * One process sees its own writes at once. Across nodes the caches also expire after a short TTL
 * (see their owners); a shared bus (Redis) will carry bumps between nodes.
 */
export class ContentChanges {
  private globalVersion = 0;
  private readonly byType = new Map<string, number>();
  /** Writes of pending drafts only (docs/drafts.md): what only readers of every status can see. */
  private drafts = 0;
  private readonly draftsByType = new Map<string, number>();
  private readonly listeners = new Set<(type: string) => void>();

  get version(): number {
    return this.globalVersion;
  }

  /** Main writes and draft writes together: what a reader of pending drafts depends on. */
  get versionWithDrafts(): number {
    return this.globalVersion + this.drafts;
  }

  /**
   * The type's version; `withDrafts` for what depends on its pending drafts too (a list under
   * `perspective=drafts`). A sum of two counters that only grow moves whenever either does.
   */
  typeVersion(type: string, withDrafts = false): number {
    return (this.byType.get(type) ?? 0) + (withDrafts ? (this.draftsByType.get(type) ?? 0) : 0);
  }

  bump(type: string): void {
    this.globalVersion++;
    this.byType.set(type, this.typeVersion(type) + 1);
    for (const listener of this.listeners) listener(type);
  }

  /** A write that changed only a pending draft: caches of main versions stay valid (an autosave does not empty them). */
  bumpDraft(type: string): void {
    this.drafts++;
    this.draftsByType.set(type, (this.draftsByType.get(type) ?? 0) + 1);
    for (const listener of this.listeners) listener(type);
  }

  onChange(listener: (type: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
