import { msUntilNextDue, runDueSchedules } from '../domain/schedules/run-schedules.js';
import type { Services } from '../domain/services.js';

/**
 * The schedule runner (docs/schedules.md, "Running"): every `pollMs`, and at the `at` of the next
 * schedule when that comes first, it claims the due schedules and runs them, so a schedule runs
 * at its `at` (plus the time the ones due with it take) on exactly one node. It runs
 * a pass at once when started, which is when schedules missed while every node was down run.
 */

/** The shortest pause between passes. */
const MIN_PAUSE_MS = 20;

export interface ScheduleRunner {
  /** Stops polling and waits for the pass in progress. */
  stop(): Promise<void>;
}

export function startScheduleRunner(svc: Services, opts: { pollMs?: number; batch?: number } = {}): ScheduleRunner {
  const pollMs = opts.pollMs ?? 1_000;
  const batch = opts.batch ?? 64;
  let stopping = false;
  let release: (() => void) | undefined;

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stopping) return resolve();
      const timer = setTimeout(done, ms);
      // A pending poll never keeps the process alive.
      timer.unref();
      function done() {
        clearTimeout(timer);
        release = undefined;
        resolve();
      }
      release = done;
    });

  // The next pass: at the next poll, or sooner when a schedule falls due before it (a schedule at
  // 09:00:00.200 runs then, not at the poll after it). Never sooner than MIN_PAUSE_MS, so a
  // schedule due now that another pass has not claimed yet cannot spin the loop.
  const untilNextPass = async () => {
    try {
      const due = await msUntilNextDue(svc);
      return due === undefined ? pollMs : Math.min(pollMs, Math.max(MIN_PAUSE_MS, due));
    } catch {
      return pollMs;
    }
  };

  const loop = async () => {
    while (!stopping) {
      let claimed = 0;
      try {
        claimed = await runDueSchedules(svc, batch);
      } catch (err) {
        // The database cannot answer (503 elsewhere): try again at the next poll.
        svc.log.warn({ err }, 'schedules: could not claim due schedules');
      }
      if (stopping) break;
      // A full batch: more may be due.
      if (claimed === batch) continue;
      await pause(await untilNextPass());
    }
  };
  const running = loop();

  return {
    async stop() {
      stopping = true;
      release?.();
      await running;
    },
  };
}
