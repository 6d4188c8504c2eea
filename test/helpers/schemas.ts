/** The content model the HTTP suites run against: every field type of docs/api.md ("Schemas") appears. */
export const TEST_SCHEMAS = [
  {
    name: 'company',
    title: 'Company',
    fields: [
      { name: 'name', type: 'string', required: true },
      { name: 'country', type: 'select', options: ['de', 'fr', 'us'] },
    ],
  },
  {
    name: 'author',
    title: 'Author',
    fields: [
      { name: 'name', type: 'string', required: true, maxLength: 100 },
      { name: 'email', type: 'email' },
      { name: 'bio', type: 'text' },
      { name: 'company', type: 'reference', to: 'company' },
    ],
  },
  {
    name: 'post',
    title: 'Post',
    fields: [
      { name: 'title', type: 'string', required: true, minLength: 1, maxLength: 200 },
      { name: 'slug', type: 'slug', source: 'title' },
      { name: 'sku', type: 'string', unique: true, pattern: '^[A-Z0-9-]+$' },
      { name: 'body', type: 'markdown' },
      { name: 'content', type: 'richtext' },
      { name: 'price', type: 'number', min: 0, indexed: true },
      { name: 'views', type: 'integer', min: 0 },
      { name: 'featured', type: 'boolean', default: false },
      { name: 'category', type: 'select', options: ['news', 'guide', 'opinion'] },
      { name: 'tags', type: 'array', of: { type: 'string' }, maxItems: 5 },
      { name: 'author', type: 'reference', to: 'author' },
      { name: 'related', type: 'array', of: { type: 'reference', to: 'post' } },
      {
        name: 'seo',
        type: 'object',
        fields: [
          { name: 'title', type: 'string', maxLength: 60 },
          { name: 'description', type: 'text' },
        ],
      },
      { name: 'location', type: 'geopoint' },
      { name: 'publishedOn', type: 'date' },
      { name: 'publishAt', type: 'datetime' },
      { name: 'website', type: 'url' },
      { name: 'contact', type: 'email' },
      { name: 'cover', type: 'image', accept: ['image/'] },
      { name: 'meta', type: 'json' },
    ],
  },
  { name: 'secret', title: 'Secret', public: false, fields: [{ name: 'code', type: 'string' }] },
  { name: 'site', title: 'Site settings', type: 'singleton', fields: [{ name: 'siteName', type: 'string' }] },
];
