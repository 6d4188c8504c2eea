/**
 * Aligned text columns that fit a width: the widest columns give up characters first, cut
 * cells end in "…", and columns that still do not fit are left out. The first column (the
 * `_id`, to copy into the next command) is never cut.
 */
export function formatTable(headers: string[], rows: string[][], maxWidth = Infinity): string {
  const length = (s: string) => [...s].length;
  const widths = headers.map((h, i) => Math.max(length(h), ...rows.map((r) => length(r[i] ?? ''))));
  const total = () => widths.reduce((a, b) => a + b, 0) + 2 * (widths.length - 1);
  const floor = (i: number) => (i === 0 ? widths[0] : Math.min(widths[i], Math.max(3, length(headers[i]))));
  while (total() > maxWidth) {
    let widest = -1;
    for (let i = 0; i < widths.length; i++) if (widths[i] > floor(i) && (widest === -1 || widths[i] > widths[widest])) widest = i;
    if (widest === -1) break;
    widths[widest]--;
  }
  while (widths.length > 1 && total() > maxWidth) widths.pop();
  const line = (cells: string[]) =>
    widths
      .map((w, i) => fit(cells[i] ?? '', w, i === widths.length - 1))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].map((l) => `${l}\n`).join('');
}

/** A cell cut to `width` code points ("…" marks the cut), padded unless it is the last column. */
function fit(text: string, width: number, last: boolean): string {
  const chars = [...text];
  const cut = chars.length > width ? `${chars.slice(0, Math.max(0, width - 1)).join('')}…` : text;
  return last ? cut : cut + ' '.repeat(Math.max(0, width - [...cut].length));
}
