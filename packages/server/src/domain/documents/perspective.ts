/**
 * Which versions a read serves (docs/drafts.md, "Perspectives"): `published`, main versions that
 * are published; `drafts`, each document's pending draft where it has one, else its main version.
 * Absent: main versions, as before drafts existed.
 */
export type Perspective = 'published' | 'drafts';

export const PERSPECTIVES: readonly Perspective[] = ['published', 'drafts'];
