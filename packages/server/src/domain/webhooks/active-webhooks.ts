import type { ActiveWebhook } from '../../storage/webhooks-store.js';
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
  private loading: Promise<ActiveWebhook[]> | undefined;
  private generation = 0;

  constructor(
    private readonly load: () => Promise<ActiveWebhook[]>,
    private readonly ttlMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Ids of the active hooks that take `event` (for documents, of type `docType`). */
  async matching(event: string, docType?: string): Promise<string[]> {
    const hooks = await this.current();
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

  private async current(): Promise<ActiveWebhook[]> {
    if (this.hooks && this.clock() - this.loadedAt < this.ttlMs) return this.hooks;
    // One load at a time; a load that started before an invalidation is not kept.
    if (!this.loading) {
      const generation = this.generation;
      const startedAt = this.clock();
      this.loading = this.load().finally(() => (this.loading = undefined));
      const hooks = await this.loading;
      if (generation === this.generation) {
        this.hooks = hooks;
        this.loadedAt = startedAt;
      }
      return hooks;
    }
    return this.loading;
  }
}
