import { open } from 'node:fs/promises';

export interface SniffedType {
  mime: string;
  ext: string;
}

const SAMPLE_BYTES = 4096;
const SAFE_EXTENSION = /^[a-z0-9]{1,5}$/;

/**
 * The type of an upload judged from its bytes alone; the client's file name and Content-Type are
 * never consulted, so `evil.png` full of HTML is reported as `text/html`.
 */
export async function sniffMime(path: string): Promise<SniffedType> {
  // file-type (about 4 MB of memory) is loaded with the first upload, not at start-up.
  const { fileTypeFromFile } = await import('file-type');
  const detected = await fileTypeFromFile(path);
  // file-type reports any `<?xml ` document as plain XML, which would hide an SVG or XHTML page.
  if (detected && detected.mime !== 'application/xml') {
    // file-type's extensions include a few odd ones (`parquet`, `Z`); only short safe ones pass.
    return { mime: detected.mime, ext: SAFE_EXTENSION.test(detected.ext) ? detected.ext : safeExtension(detected.mime) };
  }
  const { bytes, complete } = await readSample(path);
  return sniffText(bytes, complete) ?? detected ?? { mime: 'application/octet-stream', ext: 'bin' };
}

async function readSample(path: string): Promise<{ bytes: Buffer; complete: boolean }> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(SAMPLE_BYTES + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    // One byte past the sample tells whether the whole file was seen, i.e. whether a multi-byte
    // UTF-8 sequence cut at the sample's end is truncation or merely the sample boundary.
    return { bytes: buffer.subarray(0, Math.min(length, SAMPLE_BYTES)), complete: length <= SAMPLE_BYTES };
  } finally {
    await handle.close();
  }
}

const HTML_PREFIXES = [
  '<!doctype html',
  '<html',
  '<head',
  '<body',
  '<script',
  '<iframe',
  '<style',
  '<title',
  '<table',
  '<div',
  '<font',
  '<h1',
  '<br',
  '<p',
  '<a',
  '<b',
  '<!--',
];
/** Markup that makes a document dangerous wherever it appears: a browser that sniffs would run it. */
const HTML_ANYWHERE =
  /<(?:!doctype\s+html|html|head|body|script|iframe|frame|frameset|object|embed|svg|meta|base|form|img|link|style)[\s/>]/;

function sniffText(bytes: Buffer, complete: boolean): SniffedType | undefined {
  const text = bytes
    .toString('latin1')
    .replace(/^\xef\xbb\xbf/, '')
    .trimStart()
    .toLowerCase();

  if (text.startsWith('<svg') || (startsWithXmlProlog(text) && prologLeadsToSvg(text))) {
    return { mime: 'image/svg+xml', ext: 'svg' };
  }
  if (looksLikeHtml(text)) return { mime: 'text/html', ext: 'html' };
  if (text.startsWith('<?xml')) return { mime: 'application/xml', ext: 'xml' };
  if (!bytes.includes(0) && isUtf8(bytes, complete)) return { mime: 'text/plain', ext: 'txt' };
  return undefined;
}

function startsWithXmlProlog(text: string): boolean {
  return text.startsWith('<?xml') || text.startsWith('<!--') || text.startsWith('<!doctype svg');
}

/** A prolog too long for the sample to reach the root still counts when `<svg` shows up in it. */
function prologLeadsToSvg(text: string): boolean {
  const root = rootElement(text);
  return root === 'svg' || (root === undefined && text.includes('<svg'));
}

function looksLikeHtml(text: string): boolean {
  const tagEnd = (prefix: string) => {
    const next = text.charAt(prefix.length);
    // `<!--` needs no terminator; the tag-name prefixes do, so `<abbr` is not `<a`, as in the WHATWG sniffing rules.
    return prefix === '<!--' || next === '' || /[\s/>]/.test(next);
  };
  if (HTML_PREFIXES.some((p) => text.startsWith(p) && tagEnd(p))) return true;
  return HTML_ANYWHERE.test(text) || rootElement(text) === 'html';
}

/**
 * The first element's name after the XML prolog (declaration, processing instructions, comments,
 * doctype), or undefined when the sample ends first.
 */
function rootElement(text: string): string | undefined {
  let rest = text.trimStart();
  while (rest.startsWith('<?') || rest.startsWith('<!')) {
    const end = rest.startsWith('<?') ? endAfter(rest, '?>') : rest.startsWith('<!--') ? endAfter(rest, '-->') : doctypeEnd(rest);
    if (end === undefined) return undefined;
    rest = rest.slice(end).trimStart();
  }
  return /^<(?:[a-z_][\w.-]*:)?([a-z_][\w.-]*)/.exec(rest)?.[1];
}

function endAfter(text: string, terminator: string): number | undefined {
  const at = text.indexOf(terminator, 2);
  return at === -1 ? undefined : at + terminator.length;
}

/** A doctype may carry an internal subset in brackets, which can itself contain `>`. */
function doctypeEnd(text: string): number | undefined {
  const bracket = text.indexOf('[');
  const close = text.indexOf('>');
  if (close === -1) return undefined;
  if (bracket === -1 || bracket > close) return close + 1;
  const subsetEnd = text.indexOf(']', bracket);
  const after = subsetEnd === -1 ? -1 : text.indexOf('>', subsetEnd);
  return after === -1 ? undefined : after + 1;
}

function isUtf8(bytes: Buffer, complete: boolean): boolean {
  try {
    // `stream: true` holds back a sequence cut by the sample boundary instead of calling it invalid.
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: !complete });
    return true;
  } catch {
    return false;
  }
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
  'image/tiff': 'tiff',
  'image/svg+xml': 'svg',
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'application/xml': 'xml',
  'text/xml': 'xml',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'audio/webm': 'webm',
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/ogg': 'ogg',
  'video/ogg': 'ogg',
  'application/ogg': 'ogg',
  'application/zip': 'zip',
  'application/json': 'json',
  'text/csv': 'csv',
};

/** The extension stored objects get: derived from the sniffed type, never from the client's name. */
export function safeExtension(mime: string): string {
  const ext = EXTENSIONS[essence(mime)];
  return ext !== undefined && SAFE_EXTENSION.test(ext) ? ext : 'bin';
}

const RASTER_IMAGES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/tiff']);

export function isRasterImage(mime: string): boolean {
  return RASTER_IMAGES.has(essence(mime));
}

/**
 * Whether a browser could run script from it or render it as a document in our origin; callers
 * then serve it as an attachment under `Content-Security-Policy: sandbox`. Everything is active
 * unless it is on the passive allowlist, so an unknown type errs towards the safe side.
 * PDF counts as active: PDFs can embed JavaScript, forms and links that a browser's built-in
 * viewer acts on, so it must not be displayed inline from our origin.
 */
export function isActiveContent(mime: string): boolean {
  const type = essence(mime);
  if (isRasterImage(type) || type === 'text/plain' || type === 'text/csv') return false;
  return !(type.startsWith('video/') || type.startsWith('audio/'));
}

/** `Text/HTML; charset=utf-8` → `text/html`. */
function essence(mime: string): string {
  return mime.split(';')[0].trim().toLowerCase();
}
