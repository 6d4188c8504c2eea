import { describe, expectTypeOf, it } from 'vitest';
import { createClient, VellumClient, type Media, type VellumDocument } from '../../packages/client/src/index.js';
import type { Company, Post, VellumMediaRef, VellumRef, VellumSchemas } from './typed-client-schemas.js';

/**
 * The client typed by the schema (docs/client.md, "Typed by the schema"), checked by the compiler
 * (`vitest --typecheck`): what each call infers, and, with `@ts-expect-error`, what must not
 * compile. Nothing here runs.
 */
const client = createClient<VellumSchemas>({ baseUrl: 'http://localhost:3000/api' });

describe('createClient<VellumSchemas>()', () => {
  it('documents(name) is typed by the type of that name; other names and other types do not compile', async () => {
    const post = await client.documents('post').get('id');
    expectTypeOf(post.title).toEqualTypeOf<string>();
    expectTypeOf(post.category).toEqualTypeOf<'news' | 'guide' | undefined>();
    expectTypeOf(post._createdBy).toEqualTypeOf<string | null>();
    expectTypeOf((await client.documents('author').get('id')).name).toEqualTypeOf<string>();
    expectTypeOf((await client.collections('company').list()).data[0].name).toEqualTypeOf<string>();
    // @ts-expect-error: not a type of the model
    client.documents('gadget');
    // @ts-expect-error: a type argument that is not the name's own
    client.documents<Post>('author');
    // @ts-expect-error: no such field
    void post.nope;
  });

  it('a reference is an id until expanded; expand makes it the document, nested paths and lists too', async () => {
    const plain = await client.documents('post').get('id');
    expectTypeOf(plain.author).toEqualTypeOf<VellumRef<'author'> | undefined>();
    const { data } = await client.documents('post').list({ expand: ['author', 'author.company', 'related'] });
    expectTypeOf(data[0].author!.name).toEqualTypeOf<string>();
    expectTypeOf(data[0].author!.company).toEqualTypeOf<Company | undefined>();
    expectTypeOf(data[0].related).toEqualTypeOf<Post[] | undefined>();
    const one = await client.documents('post').get('id', { expand: 'author' });
    expectTypeOf(one.author!.name).toEqualTypeOf<string>();
    expectTypeOf(one.author!.company).toEqualTypeOf<VellumRef<'company'> | undefined>();
    // An image is a media id until expanded, then its media record; a path ends there.
    expectTypeOf(plain.cover).toEqualTypeOf<VellumMediaRef | undefined>();
    const withCover = await client.documents('post').get('id', { expand: ['cover', 'author'] });
    expectTypeOf(withCover.cover).toEqualTypeOf<Media | undefined>();
    // @ts-expect-error: a media record expands no further
    await client.documents('post').get('id', { expand: 'cover.url' });
    // @ts-expect-error: not a reference of a post
    await client.documents('post').list({ expand: ['title'] });
    // @ts-expect-error: no such path
    await client.documents('post').get('id', { expand: 'author.nope' });
  });

  it('the query builder: expand and fields shape the result, where takes each field’s values', async () => {
    const rows = await client.documents('post').query().expand('author').fields(['title', 'author']).all();
    expectTypeOf(rows[0].title).toEqualTypeOf<string>();
    expectTypeOf(rows[0].author!.name).toEqualTypeOf<string>();
    // @ts-expect-error: fields() left it out
    void rows[0].views;
    // @ts-expect-error: not a field of a post
    client.documents('post').query().fields(['nope']);

    const q = client.documents('post').query();
    q.where('category', 'news');
    q.where('category', 'in', ['news', 'guide']);
    q.where('views', 'gt', 10);
    q.where('author', 'any-author-id');
    q.where('publishedAt', 'gte', new Date());
    q.where('seo', 'exists', true);
    // @ts-expect-error: not an option of the select
    q.where('category', 'opinion');
    // @ts-expect-error: a number field compares with numbers
    q.where('views', 'gt', 'ten');
    // @ts-expect-error: not a field
    q.where('nope', 1);
  });

  it('an untyped client is as before: any type name, fields named by a type argument, any expand', async () => {
    const untyped = new VellumClient({ baseUrl: 'http://localhost:3000/api' });
    const post = await untyped.documents<Post>('post').get('id', { expand: 'author,author.company' });
    expectTypeOf(post).toEqualTypeOf<VellumDocument<Post>>();
    expectTypeOf((await untyped.documents('anything').get('id')).whatever).toEqualTypeOf<unknown>();
  });
});
