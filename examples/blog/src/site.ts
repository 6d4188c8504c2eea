import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Media, VellumClient } from '@vellum/client';
import { escape, page } from './html.js';
import type { VellumSchemas } from './vellum-types.js';

/**
 * The blog's two pages, rendered on the server from Vellum's published posts: `/` lists them
 * (newest first, with cover and author), `/posts/<slug>` shows one. Anonymous reads see published
 * documents only, so nothing here needs a token.
 */
export function blog(vellum: VellumClient<VellumSchemas>, apiUrl: string) {
  const posts = vellum.documents('post');
  // Media URLs are absolute when Vellum knows its public URL; otherwise they are paths on its API's origin.
  const mediaUrl = (media: Media | undefined) => (media ? new URL(media.url, apiUrl).href : undefined);
  const cover = (media: Media | undefined, alt: string) => {
    const src = mediaUrl(media);
    return src
      ? `<img src="${escape(src)}" alt="${escape(media?.alt ?? alt)}" width="${media?.width ?? ''}" height="${media?.height ?? ''}">`
      : '';
  };

  async function home(): Promise<string> {
    const { data } = await posts.list({ expand: ['author', 'cover'], orderBy: '_createdAt', order: 'desc', limit: 20 });
    const items = data.map(
      (post) => `<article>
<h2><a href="/posts/${encodeURIComponent(post.slug?.current ?? post._id)}">${escape(post.title)}</a></h2>
${cover(post.cover, post.title)}
<p>${escape(post.excerpt)}</p>
<p>by ${escape(post.author?.name ?? 'nobody')}</p>
</article>`,
    );
    return page('The Blog', items.length > 0 ? items.join('\n') : '<p>No posts yet.</p>');
  }

  async function show(slug: string): Promise<string | undefined> {
    const { data } = await posts.list({ filter: { slug }, expand: ['author', 'cover'], limit: 1 });
    const post = data[0];
    if (!post) return undefined;
    // `body` is rich text the server has sanitised (docs/api.md, "Documents"): HTML as it is.
    return page(
      post.title,
      `<article>
<h1>${escape(post.title)}</h1>
<p>by ${escape(post.author?.name ?? 'nobody')}</p>
${cover(post.cover, post.title)}
${post.body ?? ''}
</article>`,
    );
  }

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    try {
      const slug = /^\/posts\/([^/]+)$/.exec(path)?.[1];
      const html = path === '/' ? await home() : slug ? await show(decodeURIComponent(slug)) : undefined;
      res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html ?? page('Not found', '<p>No such page.</p>'));
    } catch (err) {
      res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`The CMS did not answer: ${(err as Error).message}\n`);
    }
  };
}
