import type { Conn } from '../../../storage/connection.js';
import { findDocumentsByIds } from '../../../storage/documents/document-rows.js';
import { findReferencesFrom } from '../../../storage/documents/draft-rows.js';

export interface DocumentKey {
  type: string;
  id: string;
}

/** An unpublished document a version to be published references, and the field that holds it. */
export interface Blocker extends DocumentKey {
  field: string;
}

/** What a publish would do (`dryRun`, docs/drafts.md "Publishing"): the documents it publishes and the references in the way. */
export interface PublishPlan {
  publish: DocumentKey[];
  blockedBy: Blocker[];
}

/**
 * The reference rule of publishing: a published document never points at one that is not. From
 * the version to publish (the pending draft when `fromDraft`, else the main version), follows
 * the references held (their stored rows: `document_refs`, `document_draft_refs`) to documents
 * that are not published; with `withReferences` on through theirs (their main versions: a
 * document that is not published has no pending draft), each publish taking the next with it.
 * A missing target is left to validation; a reference to itself blocks nothing.
 */
export async function planPublish(conn: Conn, root: DocumentKey, fromDraft: boolean, withReferences: boolean): Promise<PublishPlan> {
  const publish: DocumentKey[] = [root];
  const blockedBy: Blocker[] = [];
  const seen = new Set([root.id]);
  let frontier = [{ id: root.id, draft: fromDraft }];
  while (frontier.length > 0) {
    const refs = await findReferencesFrom(conn, frontier);
    const targets = new Map((await findDocumentsByIds(conn, [...new Set(refs.map((r) => r.targetId))])).map((d) => [d.id, d]));
    const next: typeof frontier = [];
    for (const ref of refs) {
      const target = targets.get(ref.targetId);
      if (!target || target.status === 'published' || target.id === ref.sourceId) continue;
      blockedBy.push({ type: target.type, id: target.id, field: ref.path });
      if (seen.has(target.id)) continue;
      seen.add(target.id);
      publish.push({ type: target.type, id: target.id });
      next.push({ id: target.id, draft: false });
    }
    frontier = withReferences ? next : [];
  }
  return { publish: withReferences || blockedBy.length === 0 ? publish : [], blockedBy };
}
