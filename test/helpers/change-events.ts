import type { ChangeEvent } from '../../packages/server/src/domain/events/change-event.js';
import { uuidv7 } from '../../packages/server/src/domain/shared/ids.js';
import type { TestApp } from './app.js';

/** A document change as the write operations publish it (for suites that publish on the bus themselves). */
export function documentEvent(
  type: ChangeEvent['type'],
  docType: string,
  doc: { id?: string; rev?: number; status?: string; data?: Record<string, unknown> } = {},
): ChangeEvent {
  const id = doc.id ?? uuidv7();
  const rev = doc.rev ?? 1;
  const status = doc.status ?? 'published';
  return {
    id: uuidv7(),
    type,
    timestamp: new Date().toISOString(),
    data: { _id: id, _type: docType, _rev: rev, _status: status, ...doc.data },
    subject: { kind: 'document', docType, id, rev, status },
  };
}

/**
 * Publishes events on the app's change bus, as a committed write does, and waits until the bus
 * delivered the last one on this node (a shared bus delivers what comes back from the channel).
 */
export async function publish(t: TestApp, ...events: ChangeEvent[]): Promise<ChangeEvent[]> {
  const last = events[events.length - 1].id;
  await new Promise<void>((resolve) => {
    const stop = t.app.services.events.subscribe((e) => {
      if (e.id !== last) return;
      stop();
      resolve();
    });
    t.app.services.events.publish(events);
  });
  return events;
}
