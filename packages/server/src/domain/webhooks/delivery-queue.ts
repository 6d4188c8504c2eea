/**
 * The in-process signal between the outbox and the delivery worker (docs/webhooks.md, "Delivery"):
 * a write that queued deliveries calls `wake()` after its commit, and the worker on this node
 * claims them at once instead of at its next poll. Always present in Services, so writers need
 * not know whether a worker runs here; with none (`webhooks.worker: false`) `wake()` does nothing
 * and another node's worker finds the rows by polling.
 */
export class DeliveryQueue {
  private readonly listeners = new Set<() => void>();

  /** Deliveries are due now. Cheap and synchronous; safe to call often. */
  wake(): void {
    for (const listener of this.listeners) listener();
  }

  /** The worker listens; the answer stops listening. */
  onWake(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
