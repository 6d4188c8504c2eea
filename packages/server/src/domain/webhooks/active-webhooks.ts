import type { Conn } from '../../storage/connection.js';
import type { ActiveWebhook } from '../../storage/webhooks/webhooks-store.js';
import { subscribesTo } from './webhook-events.js';

/**
 * The active webhooks, kept in memory so a write asks no query to learn which hooks want its
 * event (none, usually). Reloaded after a change on this node (`invalidate`), when another node
 * says so through the change bus, and at least every `ttlMs`. The outbox insert itself re-checks
 * `active`, so a hook switched off elsewhere gets nothing even from a stale list (docs/webhooks.md,
 * "Delivery").
 */
export class ActiveWebhooks {
  private hooks: ActiveWebhook[] | undefined;
  private loadedAt = 0;
  private generation = 0;

  constructor(
    private readonly load: (conn: Conn) => Promise<ActiveWebhook[]>,
    private readonly ttlMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * Ids of the active hooks that take `event` (for documents, of type `docType`). A stale list is
   * read again through `conn`, which may be the caller's open transaction (SQLite has one writer
   * connection, which that transaction holds).
   */
  async matching(conn: Conn, event: string, docType?: string): Promise<string[]> {
    const hooks = await this.current(conn);
    const ids: string[] = [];
    for (const hook of hooks) {
      if (!subscribesTo(hook.events, event)) continue;
      if (docType !== undefined && hook.types.length > 0 && !hook.types.includes(docType)) continue;
      ids.push(hook.id);
    }
    return ids;
  }

  /** The list is out of date: the next write reloads it. */
  invalidate(): void {
    this.generation++;
    this.hooks = undefined;
  }

  private async current(conn: Conn): Promise<ActiveWebhook[]> {
    if (this.hooks && this.clock() - this.loadedAt < this.ttlMs) return this.hooks;
    // No load is shared between callers: on SQLite a load waiting for the writer connection that
    // another caller's transaction holds would wait for ever. The list is small; a few loads at
    // once cost little. A load that started before an invalidation is used once, not kept.
    const generation = this.generation;
    const startedAt = this.clock();
    const hooks = await this.load(conn);
    if (generation === this.generation) {
      this.hooks = hooks;
      this.loadedAt = startedAt;
    }
    return hooks;
  }
}
