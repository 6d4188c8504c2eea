import { describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../packages/server/src/domain/events/change-event.js';
import { EventBacklog } from '../../packages/server/src/domain/events/event-backlog.js';

const event = (n: number): ChangeEvent => ({
  id: `e${n}`,
  type: 'document.created',
  timestamp: new Date(n).toISOString(),
  data: {},
  subject: { kind: 'document', docType: 'post', id: `d${n}`, rev: 1, status: 'draft' },
});
const ids = (events: ChangeEvent[] | undefined) => events?.map((e) => e.id);

describe('EventBacklog (the resume ring of GET /events)', () => {
  it('returns the events after a held id, oldest first; nothing after the newest', () => {
    const b = new EventBacklog(5);
    for (let i = 1; i <= 3; i++) b.push(event(i));
    expect(ids(b.after('e1'))).toEqual(['e2', 'e3']);
    expect(ids(b.after('e3'))).toEqual([]);
    expect(b.newestId).toBe('e3');
    expect(b.size).toBe(3);
  });

  it('forgets the oldest past its capacity: their ids answer undefined (a reset)', () => {
    const b = new EventBacklog(3);
    for (let i = 1; i <= 8; i++) b.push(event(i));
    expect(b.size).toBe(3);
    expect(b.after('e5')).toBeUndefined();
    expect(ids(b.after('e6'))).toEqual(['e7', 'e8']);
    expect(b.newestId).toBe('e8');
    expect(b.after('nope')).toBeUndefined();
  });

  it('stays right over many wraps', () => {
    const b = new EventBacklog(4);
    for (let i = 1; i <= 1001; i++) b.push(event(i));
    expect(ids(b.after('e998'))).toEqual(['e999', 'e1000', 'e1001']);
  });

  it('holds nothing with capacity 0', () => {
    const b = new EventBacklog(0);
    b.push(event(1));
    expect(b.after('e1')).toBeUndefined();
    expect(b.newestId).toBeUndefined();
  });
});
