/**
 * Start-up benchmark: how long `npm run serve` (node dist/gateway/src/main.js, no build step) takes
 * from spawning the process to its first 200 on /readyz, on a database that is already migrated,
 * alone and as two processes started at the same moment. A bare node:http server spawned the same
 * way is the baseline (what Node itself costs on this machine right now). Target: under 3 s.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../../server/src/db/embedded-postgres.js';
import { freePort, percentile, type BenchResult } from './bench-kit.js';

const root = path.resolve(import.meta.dirname, '../..');
const RUNS = 7;

/** Spawns a process and measures the time until `url` answers 200; then stops it. */
async function timeToReady(args: string[], env: Record<string, string>, pathname: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}: ${stderr}`);
      if (performance.now() - started > 60_000) throw new Error('not ready within 60 s');
      const ok = await fetch(`http://127.0.0.1:${port}${pathname}`).then((res) => res.status === 200, () => false);
      if (ok) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

function summary(name: string, times: number[]): BenchResult {
  const sorted = [...times].sort((a, b) => a - b);
  return { name, runs: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1)! };
}

export async function runBootBench(): Promise<BenchResult[]> {
  execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: root, stdio: 'inherit' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'artsong-boot-bench-'));
  const pg = await startEmbeddedPostgres(path.join(dir, 'pg'));
  try {
    await pg.createDatabase('boot');
    const env = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATABASE_URL: pg.url('boot'),
      DATA_DIR: path.join(dir, 'data'),
      ADMIN_PASSWORD: 'boot-bench-password',
      SEED_DEMO: '0',
    };
    const serve = ['dist/gateway/src/main.js'];
    // The first start migrates the empty database; the measured ones find it ready, as a restart or a scale-out does.
    const firstStart = await timeToReady(serve, env, '/readyz');
    const bare = ['-e', `require('node:http').createServer((q, s) => s.end('ok')).listen(process.env.PORT, process.env.HOST)`];
    const baseline: number[] = [];
    const alone: number[] = [];
    const pair: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      baseline.push(await timeToReady(bare, {}, '/'));
      alone.push(await timeToReady(serve, env, '/readyz'));
      pair.push(Math.max(...(await Promise.all([timeToReady(serve, env, '/readyz'), timeToReady(serve, env, '/readyz')]))));
    }
    const results = [
      summary('bare node:http server, spawn to first 200 (baseline)', baseline),
      summary('npm run serve, first start on an empty database (migrations)', [firstStart]),
      summary('npm run serve, spawn to /readyz 200', alone),
      summary('two `npm run serve` at once, until both are ready', pair),
    ];
    const p50 = (name: string) => results.find((r) => r.name.startsWith(name))!.p50;
    console.log(`\nStart-up: serve p50 ${(p50('npm run serve, spawn') / 1000).toFixed(2)} s (target < 3 s), ${(p50('npm run serve, spawn') / p50('bare')).toFixed(1)}x a bare node:http server.`);
    return results;
  } finally {
    await pg.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
