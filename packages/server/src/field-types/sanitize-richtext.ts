import { createRequire } from 'node:module';
import type sanitizeHtmlType from 'sanitize-html';

// Loaded on the first richtext value: instances without richtext fields do not pay its memory.
let sanitizer: typeof sanitizeHtmlType | undefined;
const sanitizeHtml = ((html: string, options?: sanitizeHtmlType.IOptions) => {
  sanitizer ??= createRequire(import.meta.url)('sanitize-html') as typeof sanitizeHtmlType;
  return sanitizer(html, options);
}) as typeof sanitizeHtmlType;

/**
 * Allowlist sanitizer for `richtext` fields: structural and inline formatting only. No script,
 * style or event handler survives, and links/images accept only http(s), mailto and tel URLs.
 */
const OPTIONS: sanitizeHtmlType.IOptions = {
  allowedTags: [
    'p',
    'br',
    'hr',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'blockquote',
    'pre',
    'code',
    'ul',
    'ol',
    'li',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'sub',
    'sup',
    'mark',
    'a',
    'img',
    'figure',
    'figcaption',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'span',
    'div',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    th: ['colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  transformTags: {
    a: (tagName, attribs) =>
      attribs.target === '_blank' ? { tagName, attribs: { ...attribs, rel: 'noopener noreferrer' } } : { tagName, attribs },
  },
};

export function sanitizeRichtext(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

export function richtextToText(html: string): string {
  return sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} });
}
