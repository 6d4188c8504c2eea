/** LIKE wildcards and the escape character as plain characters (the queries say escape '\\'). */
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}
