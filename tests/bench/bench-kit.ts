/** What every benchmark shares: a fresh shop to measure, timing a call many times, and printing percentiles. */
import 'reflect-metadata';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { startApp, type RunningApp } from '../../gateway/src/boot.js';
import { loadConfig, type AppConfig } from '../../server/src/config.js';

const WARMUP = 20;
const RUNS = 200;

export interface BenchResult {
  name: string;
  runs: number;
  p50: number;
  p95: number;
  max: number;
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export async function measure(name: string, call: () => Promise<void>, runs = RUNS): Promise<BenchResult> {
  for (let i = 0; i < WARMUP; i++) await call();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await call();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { name, runs, p50: percentile(times, 50), p95: percentile(times, 95), max: times.at(-1)! };
}

export function printResults(title: string, results: BenchResult[]): void {
  console.log(`\n${title}`);
  console.table(results.map((r) => ({ case: r.name, runs: r.runs, 'p50 ms': +r.p50.toFixed(2), 'p95 ms': +r.p95.toFixed(2), 'max ms': +r.max.toFixed(2) })));
}

export interface BenchApp {
  app: RunningApp;
  /** The admin's bearer header. */
  auth: { authorization: string };
  stop(): Promise<void>;
}

/** The whole shop on a fresh embedded database of its own, with an admin signed in (`overrides` change its configuration). */
export async function startBenchApp(overrides: Partial<AppConfig> = {}): Promise<BenchApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'artsong-bench-'));
  const password = 'bench-admin-password';
  const config = {
    ...loadConfig({}),
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl: undefined,
    logLevel: 'silent',
    jwtSecret: 'bench-secret',
    seedDemo: false,
    deliveryPollSeconds: 3600,
    admin: { username: 'admin', email: 'admin@example.com', password },
    ...overrides,
  };
  const app = await startApp(config, pino({ level: 'silent' }));
  const login = await fetch(`${app.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password }) });
  return {
    app,
    auth: { authorization: `Bearer ${await login.text()}` },
    async stop() {
      await app.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
