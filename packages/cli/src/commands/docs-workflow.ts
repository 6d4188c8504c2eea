import type { Document, ScheduleAction, ScheduleStatus } from '@vellum/client/node';
import { CliError, EXIT, type Command, type Flags } from '../command.js';
import { outputFormat, printDocument } from '../output/print-documents.js';
import { printPublishPlan, printSchedule, printScheduleList } from '../output/print-workflow.js';
import { connect, SERVER_OPTIONS } from '../profiles/resolve-connection.js';
import { FORMAT } from './docs-options.js';

/**
 * The editorial workflow under `vellum docs` (docs/cli.md, "Drafts, publishing and schedules"):
 * publish, unpublish and discard a document's pending draft (docs/drafts.md), and plan publishes
 * and unpublishes for later (docs/schedules.md).
 */

const STATUSES: readonly ScheduleStatus[] = ['pending', 'done', 'failed', 'cancelled'];

function actionOf(flags: Flags): ScheduleAction {
  const action = flags.string('action');
  if (action === 'publish' || action === 'unpublish') return action;
  throw new CliError(
    action === undefined
      ? '--action is required: publish or unpublish'
      : `--action must be publish or unpublish (got ${JSON.stringify(action)})`,
    EXIT.usage,
  );
}

function statusOf(flags: Flags): ScheduleStatus | undefined {
  const status = flags.string('status');
  if (status === undefined || (STATUSES as readonly string[]).includes(status)) return status as ScheduleStatus | undefined;
  throw new CliError(`--status must be one of ${STATUSES.join(', ')} (got ${JSON.stringify(status)})`, EXIT.usage);
}

const publish: Command = {
  name: 'publish',
  summary: 'Publish a document: its pending draft becomes the live version (or a draft document goes live)',
  synopsis: '<type> <id>',
  options: {
    ...SERVER_OPTIONS,
    ...FORMAT,
    'with-references': { type: 'boolean', help: 'also publish the unpublished documents it references (and theirs), all or nothing' },
    'dry-run': { type: 'boolean', help: 'print what would be published and what blocks it; change nothing' },
    force: { type: 'boolean', help: 'publish a pending draft made from an older version than the live one' },
  },
  args: { min: 2, max: 2 },
  notes:
    'A reference to an unpublished document is refused (exit 1, each named) unless --with-references.\n' +
    '--dry-run prints {publish: [{type, id}], blockedBy: [{type, id, field}]} and exits 0 either way.\n' +
    'Example: vellum docs publish post 0193… --with-references --dry-run',
  async run({ flags, args: [type, id] }) {
    const format = outputFormat(flags);
    const withReferences = flags.boolean('with-references');
    const { client } = await connect(flags);
    const docs = client.documents(type);
    if (flags.boolean('dry-run')) {
      if (flags.boolean('force')) throw new CliError('--dry-run and --force do not go together', EXIT.usage);
      printPublishPlan(await docs.publishPlan(id, { withReferences }), format);
    } else printDocument((await docs.publish(id, { withReferences, force: flags.boolean('force') })) as Document, format);
    return EXIT.ok;
  },
};

const unpublish: Command = {
  name: 'unpublish',
  summary: 'Unpublish a document: it becomes a draft holding its pending draft, if any, else its live content',
  synopsis: '<type> <id>',
  options: { ...SERVER_OPTIONS, ...FORMAT },
  args: { min: 2, max: 2 },
  async run({ flags, args: [type, id] }) {
    const format = outputFormat(flags);
    const { client } = await connect(flags);
    printDocument((await client.documents(type).unpublish(id)) as Document, format);
    return EXIT.ok;
  },
};

const discard: Command = {
  name: 'discard',
  summary: "Drop a published document's pending draft (the live version stays)",
  synopsis: '<type> <id>',
  options: { ...SERVER_OPTIONS },
  args: { min: 2, max: 2 },
  notes: 'Exit 1 (404 NOT_FOUND) when the document has no pending draft.',
  async run({ flags, args: [type, id] }) {
    const { client } = await connect(flags);
    await client.documents(type).discardDraft(id);
    process.stderr.write(`discarded the draft of ${type} ${id}\n`);
    return EXIT.ok;
  },
};

const schedule: Command = {
  name: 'schedule',
  summary: 'Plan a publish or unpublish of a document at a later instant and print the schedule',
  synopsis: '<type> <id>',
  options: {
    ...SERVER_OPTIONS,
    ...FORMAT,
    action: { type: 'string', value: 'A', choices: ['publish', 'unpublish'], help: 'publish or unpublish (required)' },
    at: {
      type: 'string',
      value: 'TIME',
      help: 'an RFC 3339 date-time with its offset, in the future (required): 2030-01-31T09:00:00+01:00',
    },
  },
  args: { min: 2, max: 2 },
  notes:
    'It runs as you, through the publish rules: a refusal then marks it failed (see vellum docs schedules).\n' +
    'Example: vellum docs schedule post 0193… --action publish --at 2030-01-31T09:00:00Z',
  async run({ flags, args: [type, id] }) {
    const format = outputFormat(flags);
    const action = actionOf(flags);
    const at = flags.string('at');
    if (at === undefined) throw new CliError('--at is required: an RFC 3339 date-time with its offset', EXIT.usage);
    const { client } = await connect(flags);
    printSchedule(await client.documents(type).schedule(id, { action, at }), format);
    return EXIT.ok;
  },
};

const schedules: Command = {
  name: 'schedules',
  summary: 'List schedules, ordered by time: of every type you may read, or of some types or one document',
  synopsis: '',
  options: {
    ...SERVER_OPTIONS,
    ...FORMAT,
    type: { type: 'string', value: 'T', help: 'only these types (comma-separated)' },
    document: { type: 'string', value: 'ID', help: "only this document's" },
    status: { type: 'string', value: 'S', choices: ['pending', 'done', 'failed', 'cancelled'], help: 'pending, done, failed or cancelled' },
    from: { type: 'string', value: 'TIME', help: 'only at or after this RFC 3339 date-time' },
    to: { type: 'string', value: 'TIME', help: 'only before this RFC 3339 date-time' },
    limit: { type: 'string', value: 'N', help: 'page size (server default 20, at most 100)' },
    offset: { type: 'string', value: 'N', help: 'schedules to skip' },
  },
  args: { min: 0, max: 0 },
  notes: 'Example: vellum docs schedules --type post --status pending --format table',
  async run({ flags }) {
    const format = outputFormat(flags);
    const query = {
      type: flags.string('type'),
      documentId: flags.string('document'),
      status: statusOf(flags),
      from: flags.string('from'),
      to: flags.string('to'),
      limit: flags.count('limit'),
      offset: flags.count('offset'),
    };
    const { client } = await connect(flags);
    printScheduleList(await client.schedules.list(query), format);
    return EXIT.ok;
  },
};

const unschedule: Command = {
  name: 'unschedule',
  summary: 'Cancel a pending schedule (one that ran, or is running, is refused)',
  synopsis: '<schedule-id>',
  options: { ...SERVER_OPTIONS },
  args: { min: 1, max: 1 },
  async run({ flags, args: [id] }) {
    const { client } = await connect(flags);
    await client.schedules.cancel(id);
    process.stderr.write(`cancelled schedule ${id}\n`);
    return EXIT.ok;
  },
};

export const workflowCommands: Command[] = [publish, unpublish, discard, schedule, schedules, unschedule];
