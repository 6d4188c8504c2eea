/**
 * `vellum dev`'s log lines (docs/cli.md, "Serving"): the server's JSON lines (pino) as one short
 * line each for a person, `12:04:31 GET /api/documents/post 200 3.1 ms`, with the level when it
 * is not `info` and an error's message and stack below it. `vellum serve` keeps JSON.
 */
const LEVELS: Record<number, string> = { 10: 'trace', 20: 'debug', 30: '', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

interface Line {
  level?: number;
  time?: number;
  msg?: string;
  method?: string;
  url?: string;
  status?: number;
  code?: string;
  ms?: number;
  err?: { message?: string; stack?: string };
}

export function formatLogLine(json: string): string {
  let line: Line;
  try {
    line = JSON.parse(json) as Line;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const time = new Date(line.time ?? Date.now()).toTimeString().slice(0, 8);
  const level = LEVELS[line.level ?? 30] ?? '';
  const text =
    line.method && line.url && line.status !== undefined
      ? `${line.method} ${line.url} ${line.status}${line.code ? ` ${line.code}` : ''} ${line.ms ?? '?'} ms`
      : (line.msg ?? '');
  const error = line.err ? `\n  ${(line.err.stack ?? line.err.message ?? '').split('\n').join('\n  ')}` : '';
  return `${time} ${level ? `${level} ` : ''}${text}${error}\n`;
}

/** A destination for the server's logger that writes formatted lines to `out`. */
export function prettyLogStream(out: { write(text: string): unknown }): { write(line: string): void } {
  return {
    write(chunk: string) {
      for (const json of chunk.split('\n')) if (json.trim() !== '') out.write(formatLogLine(json));
    },
  };
}
