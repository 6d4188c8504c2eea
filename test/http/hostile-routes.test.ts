import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { assertCliBuilt } from '../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface HostileSummary {
  dialect: string;
  operations: number;
  requests: number;
  faults: { fault: string; who: string; body: string }[];
  hangs: { request: string; after: string }[];
  errorLogLines: string[];
  alive: boolean;
}

/** `npm run hostile` (bench/hostile.mjs) on this suite's dialect; answers its JSON summary. */
function hostileRun(): Promise<{ code: number | null; summary: HostileSummary; stderr: string }> {
  const args = [join(ROOT, 'bench/hostile.mjs'), ...(process.env.VELLUM_TEST_DIALECT === 'postgres' ? ['--pg'] : [])];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-20_000)));
    child.once('error', reject);
    child.once('exit', (code) => {
      try {
        resolve({ code, summary: JSON.parse(stdout) as HostileSummary, stderr });
      } catch {
        reject(new Error(`the hostile run printed no summary (exit ${code}): ${stderr.slice(-3000)}`));
      }
    });
  });
}

/**
 * The hostile run over every route of the OpenAPI document (bench/hostile.mjs: malformed, huge,
 * deeply nested, wrongly typed, NUL-bearing and compressed bodies, hostile path segments, query
 * strings and headers, forged tokens, bad multipart uploads; as anonymous, viewer, writer and
 * admin callers, over one-socket keep-alive connections): no 500, no unanswered request (an early
 * answer that leaves a body unread hangs the next one), no error-level log line.
 */
describe('a hostile run over every route', () => {
  it('finds no 5xx but 501/503 with their codes, no hang and no error-level log line', { timeout: 15 * 60_000 }, async () => {
    assertCliBuilt();
    const { code, summary, stderr } = await hostileRun();
    const where = stderr.slice(-2000);
    expect(summary.operations, where).toBeGreaterThanOrEqual(100);
    expect(summary.requests, where).toBeGreaterThan(30_000);
    expect(summary.faults, where).toEqual([]);
    expect(summary.hangs, where).toEqual([]);
    expect(summary.errorLogLines, where).toEqual([]);
    expect(summary.alive).toBe(true);
    expect(code, where).toBe(0);
  });
});
