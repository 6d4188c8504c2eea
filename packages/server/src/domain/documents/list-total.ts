import { countByStatuses } from '../../storage/documents/document-counts.js';
import { countDocumentsUpTo } from '../../storage/documents/list-documents-query.js';
import type { ListQuery } from './list-query.js';
import type { Services } from '../services.js';
import type { ListTotal } from './list-cache.js';
import { STATUSES } from './system-fields.js';

/**
 * The total of a list, without a pass over the matching documents:
 * 1. A type, or a type and status (the anonymous reader's published-only scope, `filter[_status]`
 *    with eq/ne/in/nin): the sum of the maintained counts — exact, a few rows whatever the size.
 * 2. Any other filter or a search: the matches are counted up to `documents.countLimit`; past it
 *    the total is that limit and says it is a lower bound.
 */
export async function listTotal(svc: Services, q: ListQuery): Promise<ListTotal> {
  const statuses = maintainedStatuses(q);
  if (statuses) return { total: await countByStatuses(svc.database, q.type, statuses), exact: true };
  const limit = svc.config.documents.countLimit;
  const counted = await countDocumentsUpTo(svc.database, q, limit);
  return counted > limit ? { total: limit, exact: false } : { total: counted, exact: true };
}

/** The statuses a list covers when nothing but status narrows it; undefined for any other filter. */
export function maintainedStatuses(q: Pick<ListQuery, 'statuses' | 'conditions' | 'searchWords' | 'pendingDraft'>): string[] | undefined {
  if (q.searchWords || q.pendingDraft !== undefined) return undefined;
  let statuses = new Set<string>(q.statuses ?? STATUSES);
  for (const c of q.conditions) {
    if (!('system' in c.field) || c.field.system !== '_status') return undefined;
    const values = new Set((Array.isArray(c.value) ? c.value : [c.value]).map(String));
    if (c.op === 'eq' || c.op === 'in') statuses = new Set([...statuses].filter((s) => values.has(s)));
    else if (c.op === 'ne' || c.op === 'nin') statuses = new Set([...statuses].filter((s) => !values.has(s)));
    else return undefined;
  }
  return [...statuses];
}
