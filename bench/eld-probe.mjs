// Event-loop delay of the process it is preloaded into (`node --import ./bench/eld-probe.mjs …`):
// the benchmark adds it to the server's node flags, so no product code knows about it.
//
// On SIGUSR2 it writes what it measured since the previous SIGUSR2 (or since start) to the file
// named by VELLUM_ELD_FILE, as JSON {seq, p50_ms, p99_ms, max_ms, mean_ms}, then starts afresh:
// the benchmark signals once when a measured window opens (and ignores that answer) and once when
// it closes. `seq` counts the answers, so the reader knows the file is the new one. The file is
// written beside and renamed into place, so it is never read half-written.
import { renameSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const RESOLUTION_MS = 10;

const file = process.env.VELLUM_ELD_FILE;
if (file) {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  let seq = 0;
  // Node records the time between two samples, the resolution included (an idle loop reads 10.1
  // ms on Node 20): the delay is what exceeds it.
  const ms = (ns) => Math.max(0, Math.round((ns / 1e6 - RESOLUTION_MS) * 100) / 100);
  process.on('SIGUSR2', () => {
    const stats = {
      seq: ++seq,
      p50_ms: ms(histogram.percentile(50)),
      p99_ms: ms(histogram.percentile(99)),
      max_ms: ms(histogram.max),
      mean_ms: ms(histogram.mean),
    };
    histogram.reset();
    writeFileSync(`${file}.tmp`, JSON.stringify(stats));
    renameSync(`${file}.tmp`, file);
  });
}
