/** What every benchmark shares: a fresh shop to measure, timing a call many times, and printing percentiles. */
import 'reflect-metadata';
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
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
    // The benchmarks' one client address asks far more than a minute's allowance; the counting and its headers still run.
    apiRequestLimit: { requests: 1_000_000_000, windowSeconds: 60 },
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

/** A bare node:http server answering the same bytes as the case it stands beside: the floor each figure is a ratio to. */
export interface Floor {
  /** Times the bare answer (call it when the shop is seeded, beside the cases); the result goes first in the table. */
  measure(runs?: number): Promise<BenchResult>;
  /** A case's result with its p50 as a multiple of the floor's, in its name. */
  ratio(result: BenchResult): BenchResult;
  close(): void;
}

export async function startFloor(body: string, contentType = 'application/json'): Promise<Floor> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': contentType });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  let p50 = NaN;
  return {
    async measure(runs = RUNS) {
      const floor = await measure('floor: bare node:http answer', async () => void (await (await fetch(url)).arrayBuffer()), runs);
      p50 = floor.p50;
      return floor;
    },
    ratio: (result) => ({ ...result, name: `${result.name} (×${(result.p50 / p50).toFixed(1)} floor)` }),
    close: () => server.close(),
  };
}

/** A port nothing listens on now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
