import { AppError } from '../../errors.js';
import { inTransaction, type Conn } from '../../storage/connection.js';
import { claimDueSchedules, finishSchedule, nextUnclaimedAt } from '../../storage/schedules/schedule-claims.js';
import type { StoredSchedule } from '../../storage/schedules/schedules-store.js';
import type { Principal } from '../access/principal.js';
import { recordAudit } from '../audit/record-audit.js';
import { publishDocument, unpublishDocument } from '../documents/publish/publish-document.js';
import type { Services } from '../services.js';
import { recordedCreator, scheduleActor } from './schedule-actor.js';

/** How long a claimed schedule is this node's: far longer than a publish takes. */
export const CLAIM_MS = 30_000;

/** Documents whose schedules run at once in a pass: their reads and checks overlap the others' writes. */
const CONCURRENT_DOCUMENTS = 4;

/**
 * One pass of the schedule runner (docs/schedules.md, "Running"): claims the due schedules
 * (`at <= now`, so one missed while every node was down runs at the next start) and runs each as
 * its creator. A document's schedules run one after the other, oldest first, so a publish and a
 * later unpublish keep their order; different documents run side by side, a few at a time (a
 * newsroom's thousand publishes at 09:00 each wait for the ones before them otherwise). Answers
 * how many it claimed. The runner (jobs/schedule-runner.ts) calls it every second; tests call it
 * directly after moving the injected clock.
 */
export async function runDueSchedules(svc: Services, limit = 16): Promise<number> {
  const now = svc.now();
  const claims = await claimDueSchedules(svc.database, {
    now: now.toISOString(),
    claimUntil: new Date(now.getTime() + CLAIM_MS).toISOString(),
    limit,
  });
  const byDocument = new Map<string, StoredSchedule[]>();
  for (const claim of claims) byDocument.set(claim.documentId, [...(byDocument.get(claim.documentId) ?? []), claim]);
  const queue = [...byDocument.values()];
  // The creators of a pass are read once each (the same editor planned most of them).
  const actors = new Map<string | null, Promise<Principal>>();
  const actorOf = (createdBy: string | null) => {
    let actor = actors.get(createdBy);
    if (!actor) actors.set(createdBy, (actor = scheduleActor(svc, createdBy)));
    return actor;
  };
  const worker = async () => {
    for (let group = queue.shift(); group; group = queue.shift()) for (const claim of group) await runClaimed(svc, claim, actorOf);
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENT_DOCUMENTS, queue.length) }, worker));
  return claims.length;
}

/**
 * How long until the next schedule falls due (0 when one already is; undefined when none is
 * pending), so the runner wakes at a schedule's `at` rather than up to a poll later.
 */
export async function msUntilNextDue(svc: Services): Promise<number | undefined> {
  const now = svc.now();
  const at = await nextUnclaimedAt(svc.database, now.toISOString());
  return at === undefined ? undefined : Math.max(0, Date.parse(at) - now.getTime());
}

/** The claim ran out (and another node may hold it) before the outcome was written: the publish is undone. */
class ClaimLost extends Error {}

/**
 * Runs one claimed schedule through the publish rules (docs/drafts.md, "Publishing"). A publish
 * that happens commits with the schedule's outcome and its audit record, one transaction: a node
 * whose claim ran out writes nothing, so a schedule runs once even then. A refusal (403 lost
 * permission, 404 document gone, 409 reference rule or stale draft, 422) fails it with the reason.
 * Anything else (the database away) leaves it pending: its claim runs out and it is tried again.
 */
async function runClaimed(svc: Services, claim: StoredSchedule, actorOf: (createdBy: string | null) => Promise<Principal>): Promise<void> {
  const subject = { scheduleId: claim.id, type: claim.type, documentId: claim.documentId, action: claim.action };
  // How late it runs: the poll, the schedules due before it, a node that was down.
  const lagSeconds = (svc.now().getTime() - Date.parse(claim.at)) / 1000;
  let actor: Principal | null = recordedCreator(claim.createdBy);
  const outcome = (status: 'done' | 'failed', error: string | null) => async (conn: Conn) => {
    const mine = await finishSchedule(
      conn,
      { id: claim.id, claimedUntil: claim.claimedUntil as string },
      { status, error, doneAt: svc.now().toISOString() },
    );
    if (!mine) throw new ClaimLost();
    const details = { ...subject, status, ...(error !== null ? { error } : {}) };
    await recordAudit(svc, 'scheduleRun', { actor, target: claim.id, details }, conn);
  };
  let error: string;
  try {
    actor = await actorOf(claim.createdBy);
    const input = { type: claim.type, id: claim.documentId, alsoInTransaction: outcome('done', null) };
    if (claim.action === 'publish') await publishDocument(svc, actor, input);
    else await unpublishDocument(svc, actor, input);
    svc.log.info(subject, `schedules: ${claim.action} done`);
    svc.metrics.scheduleRun('done', lagSeconds);
    return;
  } catch (err) {
    if (err instanceof ClaimLost) return claimLost(svc, subject);
    if (!(err instanceof AppError) || err.status >= 500) {
      svc.log.error({ err, ...subject }, 'schedules: could not run a schedule; it is tried again once its claim runs out');
      return;
    }
    error = reasonOf(err);
  }
  try {
    await inTransaction(svc.database, outcome('failed', error));
    svc.log.warn({ ...subject, error }, `schedules: ${claim.action} failed`);
    svc.metrics.scheduleRun('failed', lagSeconds);
  } catch (err) {
    if (!(err instanceof ClaimLost)) throw err;
    claimLost(svc, subject);
  }
}

function claimLost(svc: Services, subject: Record<string, unknown>): void {
  svc.log.warn(subject, 'schedules: the claim ran out before the outcome was written; nothing was written');
}

/** The refusal as the schedule keeps it: its message, and each detail (the reference rule names every blocker). */
function reasonOf(err: AppError): string {
  const details = err.details ?? [];
  const reason = details.length === 0 ? err.message : `${err.message} (${details.map((d) => `${d.field}: ${d.message}`).join('; ')})`;
  // Bounded: a reference rule over a large set names every blocker.
  return reason.length > 2_000 ? `${reason.slice(0, 1_999)}…` : reason;
}
