import type { ListResult } from './list-result.js';
import type { Transport } from './transport.js';

export type ScheduleAction = 'publish' | 'unpublish';
export type ScheduleStatus = 'pending' | 'done' | 'failed' | 'cancelled';

/** A planned publish or unpublish of one document (docs/schedules.md); instants in UTC. */
export interface Schedule {
  id: string;
  type: string;
  documentId: string;
  action: ScheduleAction;
  at: string;
  status: ScheduleStatus;
  /** Why it failed: the refusal it met when it ran. */
  error?: string;
  /** A user id, or `token:<id>` for an API token. */
  createdBy: string | null;
  createdAt: string;
  /** When it ran, failed or was cancelled. */
  doneAt?: string;
}

export interface ScheduleInput {
  action: ScheduleAction;
  /** A later instant: a `Date`, or an RFC 3339 date-time with its offset. */
  at: Date | string;
}

export interface ScheduleListQuery {
  /** One type or several; omitted: every type the caller may read. */
  type?: string | readonly string[];
  documentId?: string;
  status?: ScheduleStatus;
  /** Inclusive lower bound on `at`. */
  from?: Date | string;
  /** Exclusive upper bound on `at`. */
  to?: Date | string;
  limit?: number;
  offset?: number;
}

const instant = (v: Date | string | undefined): string | undefined => (v instanceof Date ? v.toISOString() : v);

/** The JSON body of `POST …/schedule`. */
export const scheduleBody = (input: ScheduleInput): { action: ScheduleAction; at: string } => ({
  action: input.action,
  at: instant(input.at) as string,
});

/** `/schedules`: what is planned, across types (docs/schedules.md, "Routes"). */
export class SchedulesApi {
  constructor(private readonly t: Transport) {}

  /** Ordered by `at`, then id. */
  list(query: ScheduleListQuery = {}): Promise<ListResult<Schedule>> {
    const type = typeof query.type === 'string' || query.type === undefined ? query.type : query.type.join(',');
    return this.t.json({
      method: 'GET',
      path: '/schedules',
      query: {
        type,
        documentId: query.documentId,
        status: query.status,
        from: instant(query.from),
        to: instant(query.to),
        limit: query.limit,
        offset: query.offset,
      },
    });
  }

  /** A pending schedule becomes `cancelled`; one that ran, or is running, is 409 `CONFLICT`. */
  async cancel(id: string): Promise<void> {
    await this.t.json({ method: 'DELETE', path: `/schedules/${encodeURIComponent(id)}` });
  }
}
