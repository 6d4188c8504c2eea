import type { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Conn } from '../../packages/server/src/storage/connection.js';
import { bulkDocumentsJson, insertBulkSideRows, type BulkDocument } from '../../packages/server/src/storage/documents/bulk-document.js';
import { DOCUMENT_COLUMNS, documentRowParams, type StoredDocument } from '../../packages/server/src/storage/documents/document-rows.js';

const doc = (id: string): StoredDocument => ({
  id,
  type: 'post',
  status: 'draft',
  rev: 1,
  createdAt: '2026-01-02T03:04:05.006Z',
  updatedAt: '2026-01-02T03:04:05.007Z',
  createdBy: 'u1',
  updatedBy: null,
  data: { title: id },
});

/** A Conn that only records the statements sent to it, with their parameters. */
function recordingConn(): { conn: Conn; sent: Array<{ sql: string; parameters: readonly unknown[] }> } {
  const sent: Array<{ sql: string; parameters: readonly unknown[] }> = [];
  const db = {
    executeQuery: async (q: CompiledQuery) => {
      sent.push({ sql: q.sql, parameters: q.parameters });
      return { rows: [] };
    },
  };
  return { conn: { db } as unknown as Conn, sent };
}

describe('a document row as insert parameters', () => {
  it('answers the values in DOCUMENT_COLUMNS order, data as given', () => {
    const d = doc('a');
    expect(documentRowParams(d, '{"title":"a"}')).toEqual(['a', 'post', 'draft', 1, d.createdAt, d.updatedAt, 'u1', null, '{"title":"a"}']);
    expect(documentRowParams(d, 'x')).toHaveLength(DOCUMENT_COLUMNS.length);
  });
});

describe('a bulk batch as JSON', () => {
  it('keys each row by its columns, with data as the engine encodes it and the search text', () => {
    const batch: BulkDocument[] = [{ doc: doc('a'), side: { refs: [], media: [], searchText: 'a words' } }];
    const [row] = JSON.parse(bulkDocumentsJson(batch, (data) => JSON.stringify(data))) as Array<Record<string, unknown>>;
    expect(Object.keys(row)).toEqual([...DOCUMENT_COLUMNS, 'search']);
    expect(row).toMatchObject({ id: 'a', rev: 1, created_by: 'u1', updated_by: null, data: '{"title":"a"}', search: 'a words' });
    const [asObject] = JSON.parse(bulkDocumentsJson(batch, (data) => data)) as Array<Record<string, unknown>>;
    expect(asObject.data).toEqual({ title: 'a' });
  });

  it('sends the references and media uses of the whole batch, each kind once, and no empty list', async () => {
    const batch: BulkDocument[] = [
      { doc: doc('a'), side: { refs: [{ targetId: 'b', path: 'author' }], media: [], searchText: '' } },
      { doc: doc('c'), side: { refs: [{ targetId: 'a', path: 'links.0' }], media: [], searchText: '' } },
    ];
    const { conn, sent } = recordingConn();
    await insertBulkSideRows(conn, batch, { refs: 'REFS', media: 'MEDIA' });
    expect(sent).toHaveLength(1);
    expect(sent[0].sql).toBe('REFS');
    expect(JSON.parse(sent[0].parameters[0] as string)).toEqual([
      { sourceId: 'a', targetId: 'b', path: 'author' },
      { sourceId: 'c', targetId: 'a', path: 'links.0' },
    ]);
  });
});
