/**
 * Media library benchmark: one folder with 5,000 file rows (inserted with SQL; no bytes needed), then
 * the time to list one page of 100 over GraphQL (`mediaFiles(folderId, first: 100)`) and over REST
 * (`GET /api/media/files/{folderId}?limit=100`), on the first page and on a deep one.
 */
import 'reflect-metadata';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../../server/src/config.js';
import { startApp } from '../../gateway/src/boot.js';
import { encodeCursor } from '../../server/src/core/pagination.js';

const ROWS = 5000;
const PAGE = 100;
const WARMUP = 20;
const RUNS = 200;

export interface BenchResult {
  name: string;
  runs: number;
  p50: number;
  p95: number;
  max: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function measure(name: string, call: () => Promise<void>): Promise<BenchResult> {
  for (let i = 0; i < WARMUP; i++) await call();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await call();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { name, runs: RUNS, p50: percentile(times, 50), p95: percentile(times, 95), max: times.at(-1)! };
}

export async function runMediaBench(): Promise<BenchResult[]> {
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
    admin: { username: 'admin', email: 'admin@example.com', password },
  };
  const app = await startApp(config, pino({ level: 'silent' }));
  try {
    const em = app.orm.em.fork();
    const [{ id: folderId }] = await em.execute<{ id: number }[]>(`insert into media_folder (name) values ('Bench') returning id`);
    await em.execute(
      `insert into media_file (file_name, file_path, friendly_name, folder_id, mime_type, size, width, height, thumbnail_path)
       select 'file-' || n || '.png', 'uploads/bench-' || n || '.png', 'File ' || n, ?, 'image/png', 1000 + n, 400, 300, 'uploads/bench-' || n || '.thumb.webp'
       from generate_series(1, ?) as n`,
      [folderId, ROWS],
    );
    await em.execute('analyze media_file');

    const login = await fetch(`${app.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password }) });
    const token = await login.text();
    const auth = { authorization: `Bearer ${token}` };

    const query = `query($folderId: Int!, $first: Int, $after: String) {
      mediaFiles(folderId: $folderId, first: $first, after: $after) {
        totalCount
        edges { cursor node { id fileName filePath friendlyName folderId mimeType size width height thumbnailPath } }
        pageInfo { hasNextPage endCursor }
      }
    }`;
    const graphql = (after: string | null) => async () => {
      const res = await fetch(`${app.url}/graphql`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables: { folderId, first: PAGE, after } }),
      });
      const body = (await res.json()) as { data?: { mediaFiles: { edges: unknown[] } }; errors?: unknown };
      if (body.data?.mediaFiles.edges.length !== PAGE) throw new Error(`GraphQL answered ${JSON.stringify(body.errors ?? body).slice(0, 300)}`);
    };
    const rest = (offset: number) => async () => {
      const res = await fetch(`${app.url}/api/media/files/${folderId}?limit=${PAGE}&offset=${offset}`, { headers: auth });
      const body = (await res.json()) as unknown[];
      if (res.status !== 200 || body.length !== PAGE) throw new Error(`REST answered ${res.status}`);
    };
    const [{ id: deepAfterId }] = await em.execute<{ id: number }[]>(`select id from media_file where folder_id = ? order by id offset ? limit 1`, [folderId, ROWS - PAGE - 1]);

    return [
      await measure('GraphQL mediaFiles(first: 100), first page', graphql(null)),
      await measure('REST GET /api/media/files/{folderId}?limit=100, first page', rest(0)),
      await measure('GraphQL mediaFiles(first: 100, after), last page', graphql(encodeCursor({ id: deepAfterId }))),
      await measure('REST ?limit=100&offset=4900, last page', rest(ROWS - PAGE)),
    ];
  } finally {
    await app.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printResults(title: string, results: BenchResult[]): void {
  console.log(`\n${title}`);
  console.table(results.map((r) => ({ case: r.name, runs: r.runs, 'p50 ms': +r.p50.toFixed(2), 'p95 ms': +r.p95.toFixed(2), 'max ms': +r.max.toFixed(2) })));
}
