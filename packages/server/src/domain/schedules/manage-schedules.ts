import { errors } from '../../errors.js';
import { findDocument } from '../../storage/documents/document-rows.js';
import {
  cancelSchedule as cancelScheduleRow,
  findSchedule,
  insertSchedule,
  listSchedules as listScheduleRows,
} from '../../storage/schedules/schedules-store.js';
import { canOnSchema, requireAuthenticated, requireSchemaAction } from '../access/policy.js';
import { actorId, type Principal } from '../access/principal.js';
import { schemaOr404 } from '../documents/schema-or-404.js';
import { uuidv7 } from '../shared/ids.js';
import { parsePaging } from '../shared/paging.js';
import type { Services } from '../services.js';
import { parseInstant, scheduleInstant } from './schedule-time.js';
import { toScheduleView, type ScheduleView } from './schedule-view.js';

export interface ScheduleInput {
  type: string;
  id: string;
  action: 'publish' | 'unpublish';
  at: string;
}

/**
 * `POST /documents/:type/:id/schedule` (publish permission; docs/schedules.md): plans a publish or
 * unpublish of an existing document at a future instant. Permissions are asked again when it runs.
 */
export async function createSchedule(svc: Services, actor: Principal, input: ScheduleInput): Promise<ScheduleView> {
  const schema = schemaOr404(svc, input.type);
  requireSchemaAction(actor, schema.name, 'publish');
  const now = svc.now();
  const at = scheduleInstant(input.at, now);
  if ('error' in at) throw errors.validation([{ field: 'at', message: at.error }]);
  const doc = await findDocument(svc.database, input.id);
  if (!doc || doc.type !== schema.name) throw errors.notFound('Document not found');
  const schedule = {
    id: uuidv7(now.getTime()),
    type: schema.name,
    documentId: doc.id,
    action: input.action,
    at: at.at,
    status: 'pending' as const,
    error: null,
    createdBy: actorId(actor),
    createdAt: now.toISOString(),
    doneAt: null,
    claimedUntil: null,
  };
  await insertSchedule(svc.database, schedule);
  return toScheduleView(schedule);
}

export interface ScheduleQuery {
  /** One type or several, comma-separated. */
  type?: string;
  documentId?: string;
  status?: string;
  from?: string;
  to?: string;
  limit?: unknown;
  offset?: unknown;
}

/**
 * `GET /schedules`: read permission on each type asked for (403 otherwise); without `type`, the
 * types the caller may read. Ordered by `at`.
 */
export async function listSchedules(
  svc: Services,
  actor: Principal,
  query: ScheduleQuery,
): Promise<{ data: ScheduleView[]; meta: { total: number; limit: number; offset: number } }> {
  requireAuthenticated(actor);
  const { limit, offset } = parsePaging(query.limit, query.offset);
  let types: string[];
  if (query.type !== undefined && query.type !== '') {
    types = [...new Set(query.type.split(',').map((t) => t.trim()))].map((t) => schemaOr404(svc, t).name);
    for (const type of types) requireSchemaAction(actor, type, 'read');
  } else {
    types = svc.schemas
      .list()
      .map((s) => s.name)
      .filter((name) => canOnSchema(actor, name, 'read'));
  }
  const from = instantParam('from', query.from);
  const to = instantParam('to', query.to);
  if (types.length === 0) return { data: [], meta: { total: 0, limit, offset } };
  const page = await listScheduleRows(svc.database, { types, documentId: query.documentId, status: query.status, from, to, limit, offset });
  return { data: page.rows.map(toScheduleView), meta: { total: page.total, limit, offset } };
}

function instantParam(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  const at = parseInstant(raw);
  if (at === undefined) {
    throw errors.invalidInput(`${name} must be an RFC 3339 date-time with a time zone offset`, [
      { field: name, message: 'must be an RFC 3339 date-time with a time zone offset' },
    ]);
  }
  return at;
}

/**
 * `DELETE /schedules/:id` (publish permission on its type): a pending schedule becomes
 * `cancelled`. One that ran (or was cancelled), or that a node is running at this moment, is 409.
 */
export async function cancelSchedule(svc: Services, actor: Principal, id: string): Promise<ScheduleView> {
  const found = await findSchedule(svc.database, id);
  if (!found) throw errors.notFound('Schedule not found');
  requireSchemaAction(actor, found.type, 'publish');
  const result = await cancelScheduleRow(svc.database, id, svc.now().toISOString());
  if (result.cancelled && result.row) return toScheduleView(result.row);
  // Gone meanwhile: its document was deleted.
  if (!result.row) throw errors.notFound('Schedule not found');
  if (result.row.status === 'pending') throw errors.conflict('The schedule is running now');
  throw errors.conflict(`The schedule is ${result.row.status} already`, [{ field: 'status', message: result.row.status }]);
}
