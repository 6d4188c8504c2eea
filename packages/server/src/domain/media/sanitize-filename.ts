const CONTROL = /\p{Cc}/gu;
// Bidi overrides and isolates can make `evil.exe\u202Egnp.` look like `evil.png` in a UI.
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The uploaded name as data: the last path segment only, without control or bidi characters,
 * without `..` runs, at most 255 characters. It is shown to people, never used as a path or
 * header value (stored files get generated names).
 */
export function sanitizeFilename(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  const clean = base
    .replace(CONTROL, '')
    .replace(BIDI, '')
    .replace(/\.{2,}/g, '.')
    .trim();
  const cut = [...clean].slice(0, 255).join('');
  return cut === '' || cut === '.' ? 'upload' : cut;
}
