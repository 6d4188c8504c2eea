import stringWidth from 'string-width';

/**
 * Aligned text columns that fit a width: the widest columns give up characters first, cut
 * cells end in "…", and columns that still do not fit are left out. The first column (the
 * `_id`, to copy into the next command) is never cut. Widths are what a terminal shows: a CJK
 * character or an emoji takes two columns, a combining mark none (`string-width`).
 */
export function formatTable(headers: string[], rows: string[][], maxWidth = Infinity): string {
  const widths = headers.map((h, i) => Math.max(stringWidth(h), ...rows.map((r) => stringWidth(r[i] ?? ''))));
  const total = () => widths.reduce((a, b) => a + b, 0) + 2 * (widths.length - 1);
  const floor = (i: number) => (i === 0 ? widths[0] : Math.min(widths[i], Math.max(3, stringWidth(headers[i]))));
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

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * A cell cut to `width` columns ("…" marks the cut), padded unless it is the last column. It is
 * cut between graphemes (a flag or an accented letter stays whole), and a wide character that
 * would straddle the edge goes too, so every line of a column is as wide as the others.
 */
function fit(text: string, width: number, last: boolean): string {
  let cut = text;
  if (stringWidth(text) > width) {
    cut = '';
    let used = 0;
    for (const { segment } of graphemes.segment(text)) {
      const w = stringWidth(segment);
      if (used + w > width - 1) break;
      cut += segment;
      used += w;
    }
    cut += '…';
  }
  return last ? cut : cut + ' '.repeat(Math.max(0, width - stringWidth(cut)));
}
