import type { ImportSummary } from './import.js';
import type { ExportCounts } from './transfer-format.js';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The last lines of `vellum export`: what the file holds. */
export function exportSummaryText(counts: ExportCounts, file?: string): string {
  const drafts = counts.drafts ?? 0;
  const schedules = counts.schedules ?? 0;
  const workflow = drafts + schedules > 0 ? ` With ${plural(drafts, 'pending draft')} and ${plural(schedules, 'pending schedule')}.` : '';
  return `Exported ${plural(counts.documents, 'document')} (${plural(counts.revisions, 'earlier revision')}) and ${plural(counts.media, 'media file')}${file ? ` to ${file}` : ''}.${workflow}\n`;
}

/** The last lines of `vellum import`: one line of counts, then each failure on its own line. */
export function importSummaryText(s: ImportSummary): string {
  const lines = [
    `Documents: ${s.created} created, ${s.updated} updated, ${s.skipped} unchanged. ` +
      `Media: ${s.media.uploaded} uploaded, ${s.media.skipped} unchanged. ${plural(s.failed.length, 'failure')}.`,
    ...(s.versionsLeftOut > 0 ? [`${plural(s.versionsLeftOut, 'earlier version')} refused by the target, left out of the history.`] : []),
    ...workflowLines(s),
    ...s.failed.map((f) => `  failed ${f.type} ${f.id}: ${f.error}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** Only when the file carried drafts or schedules: a version 1 import's summary is as it was. */
function workflowLines(s: ImportSummary): string[] {
  const { drafts, schedules, schedulesLeftOut } = s;
  if (drafts.written + drafts.skipped + schedules.created + schedules.skipped + schedulesLeftOut.length === 0) return [];
  return [
    `Drafts: ${drafts.written} written, ${drafts.skipped} unchanged. Schedules: ${schedules.created} created, ${schedules.skipped} unchanged, ${schedulesLeftOut.length} left out (their time has passed).`,
    ...schedulesLeftOut.map((x) => `  left out schedule ${x.action} ${x.type} ${x.id} at ${x.at}: its time has passed`),
  ];
}
