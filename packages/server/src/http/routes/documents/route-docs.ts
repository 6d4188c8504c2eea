/**
 * The summary and description of each documents route in the OpenAPI document (docs/api.md,
 * "OpenAPI"): one place, so the route file stays the routes. The texts cite the docs that
 * describe each route in full.
 */
export interface RouteDoc {
  summary: string;
  description: string;
}

export const DOCUMENT_ROUTE_DOCS = {
  list: {
    summary: 'List documents of a type',
    description:
      'Filtered, ordered and paged (docs/api.md, "List queries"). `perspective=published` serves published main versions only; ' +
      '`perspective=drafts` each document\'s pending draft where it has one (read permission; docs/drafts.md, "Reading").',
  },
  get: {
    summary: 'Read one document',
    description:
      'The main version; with `perspective=drafts` its pending draft where it has one (`_version: "draft"`, ETag `"d<rev>"`), ' +
      'with `perspective=published` the main version only while it is published, else 404 (docs/drafts.md, "Reading").',
  },
  create: {
    summary: 'Create a document',
    description: 'With its `_id` or a new UUIDv7; `_status` draft unless given (docs/api.md, "Documents").',
  },
  replace: {
    summary: 'Replace a document',
    description:
      'The whole document: fields left out are removed. With `draft=true` on a published document, writes its pending draft ' +
      'instead of the live version (write permission is enough; docs/drafts.md, "Writing a draft").',
  },
  patch: {
    summary: 'Merge-patch a document',
    description:
      'RFC 7396 merge patch: `null` removes a field. With `draft=true` on a published document, writes its pending draft ' +
      'instead of the live version (write permission is enough; docs/drafts.md, "Writing a draft").',
  },
  publish: {
    summary: 'Publish a document or its pending draft',
    description:
      'The pending draft becomes the main version (or a main version not published is published): `_status` published, ' +
      '`_rev` + 1. A reference to a document not published is 409 unless `withReferences`, which publishes those too; ' +
      '`dryRun` answers `{publish, blockedBy}` and changes nothing; a draft made from an older main version is 409 unless ' +
      '`force=true` (docs/drafts.md, "Publishing").',
  },
  unpublish: {
    summary: 'Unpublish a document',
    description:
      'The document becomes a draft holding its pending draft if it has one, else its last published content; `_rev` + 1 ' +
      '(docs/drafts.md, "Unpublishing").',
  },
  schedule: {
    summary: 'Schedule a publish or unpublish',
    description:
      '`at` is an RFC 3339 date-time with its offset, in the future. It runs within seconds of `at`, once, as its creator, ' +
      'through the publish rules (docs/schedules.md).',
  },
  preview: {
    summary: 'Issue a preview token',
    description:
      "A short-lived bearer that may only read (with `perspective=drafts`), and the schema's preview URL filled in when it " +
      'has one (docs/preview.md).',
  },
  discardDraft: {
    summary: "Discard a document's pending draft",
    description:
      'The main version stays; the draft\'s saves stay in the history. 404 when there is no pending draft (docs/drafts.md, "Discarding").',
  },
  delete: {
    summary: 'Delete a document',
    description: '409 while other documents (or pending drafts) reference it, unless `force=true` (docs/api.md, "Documents").',
  },
  revisions: {
    summary: "List a document's revisions",
    description:
      'Newest first, the current one included; `kind=draft` lists the saves of the pending draft (docs/drafts.md, "Revisions and ETags").',
  },
  restore: {
    summary: 'Restore a revision',
    description:
      "Writes that revision's fields as a new revision; on a published document, into its pending draft. `kind=draft` names " +
      'a save of the pending draft (docs/drafts.md, "Restoring a revision").',
  },
} satisfies Record<string, RouteDoc>;
