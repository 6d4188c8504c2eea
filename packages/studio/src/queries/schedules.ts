import type { ListResult, Schedule, ScheduleInput, ScheduleListQuery } from '@vellum/client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client } from '../api/client';

/**
 * The query keys of schedules (docs/schedules.md), all under `['schedules']`: creating or
 * cancelling one refreshes that whole prefix, since a schedule shows on its document, in the
 * list and in the week at once.
 */
export const scheduleKeys = {
  all: ['schedules'] as const,
  ofDocument: (type: string, id: string) => [...scheduleKeys.all, 'document', type, id] as const,
  list: (query: ScheduleListQuery) => [...scheduleKeys.all, 'list', query] as const,
  week: (query: ScheduleListQuery) => [...scheduleKeys.all, 'week', query] as const,
  /** The latest failed schedules, newest first (the home's "Needs attention"). */
  latestFailed: () => [...scheduleKeys.all, 'latest-failed'] as const,
};

/** The most the server serves a page (docs/api.md, "List queries"). */
const MOST = 100;

/**
 * While one of them is pending and due within a minute (or overdue), they are asked again every
 * 5 s: the runner changes them without any event the studio hears.
 */
export function pollWhileDue(schedules: Schedule[] | undefined): number | false {
  const soon = Date.now() + 60_000;
  return schedules?.some((s) => s.status === 'pending' && Date.parse(s.at) <= soon) ? 5_000 : false;
}

/** A document's schedules, every status, ordered by `at`. */
export function useDocumentSchedules(type: string, id: string, enabled = true) {
  return useQuery({
    queryKey: scheduleKeys.ofDocument(type, id),
    queryFn: () => client.collections(type).schedules(id, { limit: MOST }),
    enabled,
    refetchInterval: (q) => pollWhileDue(q.state.data),
  });
}

/** One page of schedules across the types the user may read (the Schedules page's list). */
export function useScheduleList(query: ScheduleListQuery) {
  return useQuery({
    queryKey: scheduleKeys.list(query),
    queryFn: () => client.schedules.list(query),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => pollWhileDue(q.state.data?.data),
  });
}

/** Every schedule between `from` and `to` (a week), however many pages the server serves them in. */
export function useScheduleRange(query: Omit<ScheduleListQuery, 'limit' | 'offset'>) {
  return useQuery({
    queryKey: scheduleKeys.week(query),
    queryFn: async (): Promise<ListResult<Schedule>> => {
      const first = await client.schedules.list({ ...query, limit: MOST, offset: 0 });
      const data = [...first.data];
      while (data.length < first.meta.total) {
        const next = await client.schedules.list({ ...query, limit: MOST, offset: data.length });
        if (next.data.length === 0) break;
        data.push(...next.data);
      }
      return { ...first, data };
    },
    placeholderData: keepPreviousData,
    refetchInterval: (q) => pollWhileDue(q.state.data?.data),
  });
}

/** `POST …/schedule` for one document; every list of schedules is asked again. */
export function useCreateSchedule(type: string, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ScheduleInput) => client.collections(type).schedule(id, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scheduleKeys.all }),
  });
}

/** `DELETE /schedules/:id`: a pending schedule becomes cancelled; every list is asked again. */
export function useCancelSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => client.schedules.cancel(id),
    // A 409 (it ran meanwhile) also means the lists are out of date.
    onSettled: () => queryClient.invalidateQueries({ queryKey: scheduleKeys.all }),
  });
}
