import type { PublishPlan, Schedule } from '@vellum/client/node';
import type { OutputFormat } from './print-documents.js';
import { formatTable } from './format-table.js';
import { tableWidth } from './table-width.js';

/** The columns of a schedule table, in the order docs/schedules.md lists a schedule's fields. */
const SCHEDULE_COLUMNS = ['id', 'type', 'documentId', 'action', 'at', 'status', 'error'] as const;

/** One schedule: json pretty-printed, ndjson one line, table one row per field. */
export function printSchedule(schedule: Schedule, format: OutputFormat): void {
  if (format === 'json') return write(`${JSON.stringify(schedule, null, 2)}\n`);
  if (format === 'ndjson') return write(`${JSON.stringify(schedule)}\n`);
  const rows = Object.entries(schedule).map(([k, v]) => [k, v === null || v === undefined ? '' : String(v)]);
  write(formatTable(['field', 'value'], rows, tableWidth()));
}

/** `GET /schedules`: json is the API's body `{data, meta}`, ndjson one schedule per line, table one row each. */
export function printScheduleList(
  body: { data: Schedule[]; meta: { total: number; limit: number; offset: number } },
  format: OutputFormat,
): void {
  if (format === 'json') return write(`${JSON.stringify(body, null, 2)}\n`);
  if (format === 'ndjson') return write(body.data.map((s) => `${JSON.stringify(s)}\n`).join(''));
  const rows = body.data.map((s) => SCHEDULE_COLUMNS.map((c) => (s[c] ?? '').replace(/\s+/g, ' ')));
  const { total, offset } = body.meta;
  const shown = body.data.length === 0 ? `0 of ${total}` : `${offset + 1}–${offset + body.data.length} of ${total}`;
  write(`${formatTable([...SCHEDULE_COLUMNS], rows, tableWidth())}(${shown})\n`);
}

/**
 * What `publish --dry-run` would do: json the API's `data` (`{publish, blockedBy}`), ndjson one
 * line per entry (`{"publish": {type, id}}` or `{"blockedBy": {type, id, field}}`), table one row
 * per entry.
 */
export function printPublishPlan(plan: PublishPlan, format: OutputFormat): void {
  if (format === 'json') return write(`${JSON.stringify(plan, null, 2)}\n`);
  if (format === 'ndjson')
    return write(
      [...plan.publish.map((p) => ({ publish: p })), ...plan.blockedBy.map((b) => ({ blockedBy: b }))]
        .map((l) => `${JSON.stringify(l)}\n`)
        .join(''),
    );
  const rows = [
    ...plan.publish.map((p) => ['publish', p.type, p.id, '']),
    ...plan.blockedBy.map((b) => ['blocked by', b.type, b.id, b.field]),
  ];
  write(rows.length === 0 ? 'nothing to publish\n' : formatTable(['what', 'type', 'id', 'field'], rows, tableWidth()));
}

function write(text: string): void {
  process.stdout.write(text);
}
