/** The schedules table (migration 017; docs/schedules.md). */
export interface SchedulesTable {
  id: string;
  type: string;
  document_id: string;
  /** `publish` or `unpublish`. */
  action: string;
  /** When it is due: an ISO date-time in UTC. */
  at: string;
  /** `pending` (also while a node holds its claim), then `done`, `failed` or `cancelled`. */
  status: string;
  error: string | null;
  created_by: string | null;
  created_at: string;
  done_at: string | null;
  /** The claim of the node running it; a claim that ran out may be taken by another node. */
  claimed_until: string | null;
}
