/**
 * The upkeep's code, run as a CommonJS script (`eval`) on the read worker's thread
 * (sqlite-read-worker.ts appends it to its own), idle until a 'maintain' message starts it, with a
 * connection of its own that never waits for a lock (`busy_timeout = 0`: what it cannot do now,
 * it does on a later turn):
 * - every checkpointEveryMs a PASSIVE checkpoint copies the write-ahead log into the database
 *   file; once a log of restartLogPages or more is copied whole, it tells the writer, which starts
 *   the log over before its next transaction (see `SqliteMaintenance`);
 *   file (it never waits for the writer or a reader, and neither waits for it);
 * - every mergeEveryMs it merges the search index's segments (FTS5 'merge', mergePages pages a
 *   step, steps while there is work, for at most mergeBudgetMs), with the index's own automatic
 *   merging switched off, so no request's COMMIT does that work. One step a turn of the thread's
 *   event loop: a read that arrives meanwhile waits for one step, not for the whole budget;
 * - statsFirstMs after it starts, every statsEveryMs and when it stops, `PRAGMA optimize` brings
 *   the planner's statistics up to date, and an empty schema change has every connection read them.
 */
export const MAINTENANCE_SOURCE = `
{
const { parentPort } = require('node:worker_threads');
const start = (settings) => {
  const Database = require(settings.driver);
  const db = new Database(settings.path, { fileMustExist: true });
  db.pragma('busy_timeout = 0');
  db.pragma('wal_autocheckpoint = 0');
  // A merge step writes 16 pages and a checkpoint copies the log past the page cache: SQLite's
  // default cache, 2 MB kept once filled, would mostly hold pages nothing here reads again.
  db.pragma('cache_size = -256');
  const passive = () => db.pragma('wal_checkpoint(PASSIVE)')[0];
  const checkpoint = () => {
    try {
      let r = passive();
      // SQLite starts the log over only at a write that finds it wholly copied, which writes that
      // never pause never do. Past restartLogPages the thread copies again what came meanwhile
      // until a pass finds little new, then asks the writer to copy the rest and start the log
      // over: it holds off its next transaction while this thread copies what came since the last
      // pass (a few pages), and that transaction starts the log over. Writes that outpace the
      // copying are asked after four passes anyway: they then wait for one pass's worth, the
      // back-pressure SQLite's own automatic checkpoint would apply, off the event loop.
      if (r.log < settings.restartLogPages || r.checkpointed !== r.log) return;
      for (let pass = 0; pass < 4; pass++) {
        const again = passive();
        if (again.checkpointed !== again.log) return; // a reader holds older pages: the next turn
        const fresh = again.log - r.log;
        r = again;
        if (fresh <= settings.restartLogPages / 16) break;
      }
      parentPort.postMessage({ logCopied: r.log });
    } catch {
      // Busy (another checkpoint runs, say a second process's): the next turn tries again.
    }
  };
  let statements; // prepared once the search table is there
  let steps = 0; // merge statements run, for tests and diagnostics (the 'steps' message)
  const mergeStep = () => {
    if (!statements) {
      // Persistent FTS5 setting: the writer's COMMITs stop merging (their crisis merge stays, as a
      // bound if this thread falls behind). Until the migrations have made the table, nothing to do.
      db.prepare("insert into documents_fts (documents_fts, rank) values ('automerge', 0)").run();
      statements = {
        changes: db.prepare('select total_changes() as n'),
        merge: db.prepare("insert into documents_fts (documents_fts, rank) values ('merge', ?)"),
      };
    }
    const before = statements.changes.get().n;
    statements.merge.run(settings.mergePages);
    steps++;
    // The command itself counts as one change: a step that merged something counts two or more
    // (FTS5 documentation, "The 'merge' Command").
    return statements.changes.get().n - before >= 2;
  };
  let stopped = false;
  let merging = false;
  let turns = 0; // merge turns taken, and the turn each 'afterTurns' asker waits for (tests)
  const waiting = [];
  // data_version changes when another connection commits: while it stays, the index is as merged
  // as it was last found, and no step (a write, which takes the lock) is tried.
  let mergedAt = -1;
  const merge = () => {
    if (merging || stopped) return;
    const version = db.pragma('data_version', { simple: true });
    if (version === mergedAt) return;
    const until = Date.now() + settings.mergeBudgetMs;
    merging = true;
    const step = () => {
      let more = false;
      try {
        const worked = !stopped && mergeStep();
        if (!worked && !stopped) mergedAt = version;
        more = worked && Date.now() < until;
      } catch {
        // Busy (the writer holds the lock: it goes first), or no search table yet: the next turn.
      }
      if (more) setImmediate(step);
      else merging = false;
    };
    step();
  };
  const mergeTurn = () => {
    merge();
    turns++;
    while (waiting.length > 0 && waiting[0] <= turns) {
      waiting.shift();
      parentPort.postMessage({ stepsAfterTurns: steps });
    }
  };
  // The planner's statistics (sqlite_stat1): ANALYZE, bounded to a sample per index
  // (analysis_limit), of each table that never had it or has grown or shrunk tenfold since
  // (PRAGMA optimize; flag 0x10000: every table, not only those this connection read; 0x01 only
  // names them). Other connections read the statistics with the schema, once: an empty change of
  // the schema makes each read it again before its next statement.
  let analyzed = 0; // runs that changed the statistics (tests)
  const statistics = () => {
    try {
      return db.prepare("select group_concat(tbl || ' ' || ifnull(idx, '') || ' ' || stat, ';') as s from sqlite_stat1").get().s;
    } catch {
      return null; // no statistics table yet
    }
  };
  const optimize = () => {
    try {
      db.pragma('analysis_limit = ' + settings.analysisLimit);
      if (db.pragma('optimize = 0x10003').length === 0) return;
      // An empty table without an index is named every time, and its ANALYZE changes nothing.
      const before = statistics();
      db.pragma('optimize = 0x10002');
      if (statistics() === before) return;
      db.exec('begin immediate; create table vellum_reload_statistics (x); drop table vellum_reload_statistics; commit');
      analyzed++;
    } catch {
      // Busy: the next turn.
      if (db.inTransaction) db.exec('rollback');
    }
  };
  const mergeTimer = setInterval(mergeTurn, settings.mergeEveryMs);
  const checkpointTimer = setInterval(checkpoint, settings.checkpointEveryMs);
  const firstStats = setTimeout(optimize, settings.statsFirstMs);
  const statsTimer = setInterval(optimize, settings.statsEveryMs);
  parentPort.on('message', (m) => {
    if (m === 'steps') return parentPort.postMessage({ steps });
    if (m === 'optimize') {
      optimize();
      return parentPort.postMessage({ analyzed });
    }
    if (typeof m === 'object' && m !== null && 'afterTurns' in m) return waiting.push(turns + m.afterTurns);
    if (m === 'copy') {
      try {
        passive();
      } catch {
        // Busy: the writer goes on; the log starts over at a later ask.
      }
      return parentPort.postMessage({ copied: true });
    }
    if (m !== 'stop') return;
    stopped = true;
    clearInterval(mergeTimer);
    clearInterval(checkpointTimer);
    clearTimeout(firstStats);
    clearInterval(statsTimer);
    // As SQLite advises before a connection closes: what a bulk load changed is measured now.
    optimize();
    checkpoint();
    db.close();
    parentPort.postMessage('stopped');
  });
};
parentPort.on('message', (m) => m && m.maintain && start(m.maintain));
}
`;
