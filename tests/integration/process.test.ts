import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/** The real entry point, run as its own process on its own embedded database, as `npm start` does. */
const root = path.resolve(import.meta.dirname, '../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'artsong-process-'));

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
}

async function start(env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'gateway/src/main.ts'], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + 150_000;
  while (!output.includes('is listening')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, url: `http://127.0.0.1:${port}`, output: () => output };
}

const running = new Set<ChildProcess>();

async function stop(started: Started, signal: NodeJS.Signals): Promise<number | null> {
  running.delete(started.child);
  const exited = new Promise<number | null>((resolve) => started.child.once('exit', (code) => resolve(code)));
  started.child.kill(signal);
  return exited;
}

const postgresProcesses = () =>
  execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(path.join(dataDir, 'pg')));

afterAll(async () => {
  for (const child of running) {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the product as one process', () => {
  let token: string;
  let password: string;

  it('starts on an embedded database, prints a generated admin password once, and serves', async () => {
    const first = await start({ ADMIN_USERNAME: 'boss', ADMIN_EMAIL: 'boss@example.com' });
    const match = /Admin account created: username "boss", password "([^"]+)"/.exec(first.output());
    expect(match).not.toBeNull();
    password = match![1];
    expect(fs.existsSync(path.join(dataDir, 'jwt-secret'))).toBe(true);
    expect((await fetch(first.url + '/readyz')).status).toBe(200);
    // The embedded database of a first start opens with the demo catalogue.
    expect(first.output()).toContain('"msg":"demo catalogue added"');
    expect((await (await fetch(first.url + '/api/categories/all')).json()).length).toBeGreaterThan(0);
    const login = await fetch(first.url + '/api/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'boss', password }) });
    expect(login.status).toBe(200);
    token = await login.text();
    expect(await stop(first, 'SIGTERM')).toBe(0);
    // Structured JSON logs with a request id, the request named by its route template.
    const line = first.output().split('\n').find((l) => l.includes('"route":"/api/login"'));
    expect(JSON.parse(line!)).toMatchObject({ req: { id: expect.any(String), method: 'POST', route: '/api/login' }, res: { statusCode: 200 } });
    expect(postgresProcesses()).toEqual([]);
  }, 180_000);

  it('restarts on the same data: no new password, stale half-received uploads swept (a fresh one of another process kept), the signing secret and sessions survive; SIGINT stops it cleanly', async () => {
    // An upload that a killed process left half-received hours ago, and one another process is receiving now.
    const stray = path.join(dataDir, 'tmp', 'uploads', 'gone-host-1-abcd', 'abandoned.part');
    const inProgress = path.join(dataDir, 'tmp', 'uploads', 'sibling-host-2-ef01', 'receiving.part');
    for (const file of [stray, inProgress]) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, 'half an image');
    }
    const hoursAgo = new Date(Date.now() - 7 * 3600_000);
    fs.utimesSync(stray, hoursAgo, hoursAgo);
    fs.utimesSync(path.dirname(stray), hoursAgo, hoursAgo);
    const second = await start({ ADMIN_USERNAME: 'boss', ADMIN_EMAIL: 'boss@example.com' });
    expect(second.output()).not.toContain('Admin account created');
    expect(second.output()).not.toContain('demo catalogue');
    expect(fs.existsSync(stray)).toBe(false);
    expect(fs.existsSync(path.dirname(stray))).toBe(false);
    expect(fs.readFileSync(inProgress, 'utf8')).toBe('half an image');
    const me = await fetch(second.url + '/api/me', { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ username: 'boss', role: 'admin' });
    expect(await stop(second, 'SIGINT')).toBe(0);
    expect(second.output()).toContain('"msg":"stopped"');
    expect(postgresProcesses()).toEqual([]);
  }, 180_000);

  it('exits with a failure code, leaving no database behind, when it cannot serve', async () => {
    const blocker = net.createServer().listen(0, '127.0.0.1');
    await new Promise((r) => blocker.once('listening', r));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', 'gateway/src/main.ts'], {
        cwd: root,
        env: { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout!.on('data', (chunk) => (output += chunk));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).toBe(1);
      expect(output).toContain('could not start');
      expect(postgresProcesses()).toEqual([]);
    } finally {
      blocker.close();
    }
  });
});
