// The blog's content model: what `npm create vellum` starts with, trimmed to what the site shows.
import type { VellumConfigInput } from 'vellum';

export default {
  schemas: [
    {
      name: 'author',
      title: 'Author',
      fields: [
        { name: 'name', type: 'string', required: true },
        { name: 'bio', type: 'text' },
      ],
    },
    {
      name: 'post',
      title: 'Post',
      fields: [
        { name: 'title', type: 'string', required: true },
        { name: 'slug', type: 'slug', source: 'title' },
        { name: 'excerpt', type: 'text' },
        { name: 'cover', type: 'image' },
        { name: 'body', type: 'richtext' },
        { name: 'author', type: 'reference', to: 'author' },
      ],
    },
  ],
} satisfies VellumConfigInput;
