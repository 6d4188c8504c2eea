/**
 * The writer's side of keeping the write-ahead log short (sqlite-maintenance.ts, "Checkpoints").
 * SQLite starts the log over at a write transaction that begins with the log wholly copied into
 * the database file and no reader in it. Once the maintenance thread has copied a long log, it
 * asks (`request`, with the way to copy the rest); the driver then calls `beforeTransaction` with
 * the writer held and no transaction open, which waits while the thread copies the pages written
 * since (no new write can add any), so the transaction that follows starts the log over. A reader
 * still in the log (a slow read on the read worker) keeps it; the thread asks again at a later
 * turn. One wait per ask, so such a reader does not cost every transaction one.
 */
export class LogRestart {
  private copy: (() => Promise<void>) | undefined;

  request(copy: () => Promise<void>): void {
    this.copy = copy;
  }

  async beforeTransaction(): Promise<void> {
    const copy = this.copy;
    if (!copy) return;
    this.copy = undefined;
    await copy();
  }
}
