import type { ImportSummary } from './import.js';
import type { ExportCounts } from './transfer-format.js';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The last lines of `vellum export`: what the file holds. */
export function exportSummaryText(counts: ExportCounts, file?: string): string {
  return `Exported ${plural(counts.documents, 'document')} (${plural(counts.revisions, 'earlier revision')}) and ${plural(counts.media, 'media file')}${file ? ` to ${file}` : ''}.\n`;
}

/** The last lines of `vellum import`: one line of counts, then each failure on its own line. */
export function importSummaryText(s: ImportSummary): string {
  const lines = [
    `Documents: ${s.created} created, ${s.updated} updated, ${s.skipped} unchanged. ` +
      `Media: ${s.media.uploaded} uploaded, ${s.media.skipped} unchanged. ${plural(s.failed.length, 'failure')}.`,
    ...(s.versionsLeftOut > 0 ? [`${plural(s.versionsLeftOut, 'earlier version')} refused by the target, left out of the history.`] : []),
    ...s.failed.map((f) => `  failed ${f.type} ${f.id}: ${f.error}`),
  ];
  return `${lines.join('\n')}\n`;
}
