// The configuration of this Vellum project: the content model, and any setting you change.
// Every setting is described in Vellum's docs/api.md ("Configuration"); a mistake is reported
// in one line when the server starts. `npm run dev` restarts the server when you save this file.
import type { VellumConfigInput } from 'vellum';

export default {
  // The content model: one entry per document type. Each becomes an API path
  // (/api/documents/post), a section of the studio, and a TypeScript type (`npm run types`).
  schemas: [
    {
      name: 'author',
      title: 'Author',
      fields: [
        { name: 'name', type: 'string', required: true, maxLength: 80 },
        { name: 'bio', type: 'text', maxLength: 500 },
        { name: 'avatar', type: 'image' },
      ],
    },
    {
      name: 'post',
      title: 'Post',
      fields: [
        { name: 'title', type: 'string', required: true, maxLength: 120 },
        // Made from the title when left empty (`my-first-post`), unique among posts.
        { name: 'slug', type: 'slug', source: 'title' },
        { name: 'excerpt', type: 'text', maxLength: 300 },
        { name: 'cover', type: 'image' },
        // HTML, sanitised on every write; the studio edits it as rich text.
        { name: 'body', type: 'richtext' },
        // An id of an author; `?expand=author` serves the author in its place.
        { name: 'author', type: 'reference', to: 'author' },
        { name: 'tags', type: 'array', of: { type: 'string' } },
      ],
    },
  ],

  // Anyone may read published documents of every type (drafts need a signed-in editor).
  // documents: { publicRead: true },

  // A front end on another origin (http://localhost:4321 for a local Astro site) reads the API
  // from the browser only when its origin is allowed here; server-side rendering needs nothing.
  // server: { cors: ['http://localhost:4321'], publicUrl: 'https://cms.example.com' },

  // Media `url`s are paths (/api/media/files/…) unless a public URL is set: set
  // server.publicUrl above (or media.publicBaseUrl for a CDN) to get absolute ones.

  // The database: SQLite in ./data by default. For several servers, PostgreSQL:
  // database: { url: process.env.DATABASE_URL },
} satisfies VellumConfigInput;
