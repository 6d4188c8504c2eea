import { VellumApiError, type ScheduleAction } from '@vellum/client';
import { client } from '../../../api/client';

export type BulkAction = { kind: 'publish' | 'unpublish' | 'delete' } | { kind: 'schedule'; action: ScheduleAction; at: string };

export const ACTION_LABEL: Record<BulkAction['kind'], string> = {
  publish: 'Publishing',
  unpublish: 'Unpublishing',
  delete: 'Deleting',
  schedule: 'Scheduling',
};

/** One document's outcome: done, or the server's answer (a 409 names the referrers or the unpublished references). */
export interface BulkResult {
  id: string;
  ok: boolean;
  message: string;
}

/** The server's error as a sentence, with its details (each referrer, each unpublished reference). */
export function errorText(err: unknown): string {
  if (!(err instanceof VellumApiError)) return err instanceof Error ? err.message : String(err);
  const details = (err.details ?? []).map((d) => (d.field ? `${d.field}: ${d.message}` : d.message));
  return [err.error.message, ...details].join(' · ');
}

/** Runs the action on one document through the typed client (docs/client.md). */
export async function runOne(type: string, id: string, action: BulkAction): Promise<void> {
  const api = client.collections(type);
  if (action.kind === 'publish') await api.publish(id);
  else if (action.kind === 'unpublish') await api.unpublish(id);
  else if (action.kind === 'delete') await api.delete(id);
  else if (action.kind === 'schedule') await api.schedule(id, { action: action.action, at: action.at });
}

/** Up to this many documents are gathered for "Select all N matching", and the bar says so. */
export const SELECT_ALL_CAP = 1000;

/**
 * The ids of every document the list's query matches, up to `SELECT_ALL_CAP`: cursor pages of 100
 * reading `_id` alone (docs/api.md, "Cursor pagination").
 */
export async function matchingIds(
  type: string,
  q: { search: string; sort: string; filters: Record<string, string>; locale?: string; untranslated?: boolean },
): Promise<string[]> {
  let query = client
    .collections(type)
    .query()
    .orderBy(q.sort as '_updatedAt')
    .fields(['_id'] as never[])
    .limit(100);
  if (q.search.trim()) query = query.search(q.search.trim());
  if (q.locale) query = query.locale(q.locale);
  if (q.locale && q.untranslated) query = query.untranslated(q.locale);
  for (const [field, value] of Object.entries(q.filters)) query = query.where(field as '_status', value);
  const ids: string[] = [];
  for await (const d of query) {
    ids.push(String(d._id));
    if (ids.length >= SELECT_ALL_CAP) break;
  }
  return ids;
}
