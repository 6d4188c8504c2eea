/**
 * The Content-Security-Policy of the pages this server renders (the studio, docs/studio.md
 * "Serving"; the API docs page, docs/api.md "OpenAPI"): their own files only, no framing (the
 * studio's approve buttons must not be clickable inside another site's frame). Inline styles are
 * allowed because the UI libraries of both pages set style attributes as they render.
 * `extraImageSources` adds image sources a page needs (the studio: `blob:` previews);
 * `frameSources` the origins it may frame (the studio: the schemas' preview pages).
 */
export function pageCsp(extraImageSources: string[] = [], frameSources: string[] = []): string {
  return [
    "default-src 'self'",
    // The studio's preview pane frames the site's preview pages (docs/preview.md).
    ...(frameSources.length ? [["frame-src 'self'", ...frameSources].join(' ')] : []),
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    ["img-src 'self' data:", ...extraImageSources].join(' '),
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
