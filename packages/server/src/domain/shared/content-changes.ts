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
  private readonly listeners = new Set<(type: string) => void>();

  get version(): number {
    return this.globalVersion;
  }

  typeVersion(type: string): number {
    return this.byType.get(type) ?? 0;
  }

  bump(type: string): void {
    this.globalVersion++;
    this.byType.set(type, this.typeVersion(type) + 1);
    for (const listener of this.listeners) listener(type);
  }

  onChange(listener: (type: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
