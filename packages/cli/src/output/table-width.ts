/** The width a table may take: the terminal's, else COLUMNS, else unlimited (docs/cli.md, "Output"). */
export function tableWidth(): number {
  if (process.stdout.isTTY && process.stdout.columns) return process.stdout.columns;
  const columns = Number(process.env.COLUMNS);
  return Number.isInteger(columns) && columns > 0 ? columns : Infinity;
}
