// The editorial workflow's figures in `npm run bench` (docs/drafts.md, docs/schedules.md).
import { api, pool, postBody } from './setup.mjs';

/** One in five seeded posts: the share of posts with pending drafts in `list20_expand_drafts`. */
export const DRAFT_SHARE = 5;

/**
 * Gives every fifth seeded post (index 1, 6, 11, …: not the ones `update` and `get_expand` rotate
 * over) a pending draft with a new title, through `PATCH ?draft=true` as the studio's autosave
 * does. The main versions, and so every anonymous answer, stay as they were.
 */
export async function seedDrafts({ base, token, postIds, log }) {
  const t0 = Date.now();
  const ids = postIds.filter((_, i) => i % DRAFT_SHARE === 1);
  await pool(ids.length, 20, async (i) => {
    const res = await api(base, 'PATCH', `/api/documents/post/${ids[i]}?draft=true`, token, { title: `Draft of post ${i}` });
    if (res.status !== 200) throw new Error(`draft seed: ${res.status} ${JSON.stringify(res.json)}`);
  });
  log(`${ids.length} pending drafts in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

const SCHEDULES = 1000;
/** How long after the last schedule is made they all fall due: room for the runner to be idle first. */
const LEAD_MS = 3000;

/**
 * `schedule_lag`: 1 000 draft posts, each with a publish scheduled for the same instant; the lag
 * of each is its `doneAt` minus `at` (the runner's poll, claims and publishes), p50/p99/max.
 */
export async function benchScheduleLag({ base, token, authorIds, dialect, log }) {
  log('scenario schedule_lag');
  const ids = await pool(SCHEDULES, 20, async (i) => {
    const res = await api(base, 'POST', '/api/documents/post', token, { ...postBody(i, authorIds), title: `Scheduled post ${i}` });
    if (res.status !== 201) throw new Error(`schedule_lag post: ${res.status} ${JSON.stringify(res.json)}`);
    return res.json.data._id;
  });
  // Making 1 000 schedules takes a few seconds; `at` is set well after the last is made.
  const at = new Date(Date.now() + 20_000 + LEAD_MS).toISOString();
  const t0 = Date.now();
  await pool(SCHEDULES, 20, async (i) => {
    const res = await api(base, 'POST', `/api/documents/post/${ids[i]}/schedule`, token, { action: 'publish', at });
    if (res.status !== 201) throw new Error(`schedule: ${res.status} ${JSON.stringify(res.json)}`);
  });
  const made = Date.now();
  if (made > Date.parse(at)) throw new Error(`making the schedules took ${made - t0} ms, past their due time`);
  log(`  ${SCHEDULES} schedules made in ${made - t0} ms, due at ${at}`);
  const pendingLeft = async () =>
    (await api(base, 'GET', `/api/schedules?type=post&status=pending&limit=1&from=${encodeURIComponent(at)}`, token)).json.meta.total;
  const deadline = Date.parse(at) + 120_000;
  while ((await pendingLeft()) > 0) {
    if (Date.now() > deadline) throw new Error('schedule_lag: schedules still pending two minutes after their due time');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const lags = [];
  let failed = 0;
  for (let offset = 0; offset < SCHEDULES; offset += 100) {
    const page = await api(base, 'GET', `/api/schedules?type=post&from=${encodeURIComponent(at)}&limit=100&offset=${offset}`, token);
    for (const s of page.json.data) {
      if (s.status !== 'done') failed++;
      else lags.push(Date.parse(s.doneAt) - Date.parse(s.at));
    }
  }
  lags.sort((a, b) => a - b);
  const q = (p) => lags[Math.min(lags.length - 1, Math.ceil((p / 100) * lags.length) - 1)];
  const line = {
    scenario: 'schedule_lag',
    dialect,
    schedules: SCHEDULES,
    done: lags.length,
    failed,
    p50_ms: q(50),
    p99_ms: q(99),
    max_ms: lags.at(-1),
  };
  process.stdout.write(JSON.stringify(line) + '\n');
  return line;
}
