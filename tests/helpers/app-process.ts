import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** The shop's real entry point run as a process of its own (as `npm start` runs it), with its own DATA_DIR. */
export interface AppProcess {
  name: string;
  url: string;
  dataDir: string;
  child: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  /** A fetch against this process; `json` bodies are sent as JSON, `token` as a bearer. */
  request(pathname: string, init?: Omit<RequestInit, 'body'> & { json?: unknown; body?: BodyInit; token?: string }): Promise<Response>;
  /** Stops it with the signal and resolves with its exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const root = path.resolve(import.meta.dirname, '../..');
const running = new Set<ChildProcess>();

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Spawns `gateway/src/main.ts` and resolves once it says it is listening; rejects with its output
 * when it exits first or takes longer than `timeoutMs`.
 */
export async function startAppProcess(name: string, env: Record<string, string>, timeoutMs = 90_000): Promise<AppProcess> {
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), `artsong-${name}-`));
  // A free port can be taken by another test's process between the probe and the child's listen: the
  // child then exits saying so, and gets another port (any other failure to start is the test's).
  for (let attempt = 1; ; attempt++) {
    try {
      return await spawnAppProcess(name, env, dataDir, await freePort(), timeoutMs);
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === 3) throw error;
    }
  }
}

/** The child could not listen: its port was taken after freePort() found it free. */
class PortTaken extends Error {}

async function spawnAppProcess(name: string, env: Record<string, string>, dataDir: string, port: number, timeoutMs: number): Promise<AppProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'gateway/src/main.ts'], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info', HOST: '127.0.0.1', API_KEY_RATE_PER_MINUTE: '1000000', ...env, DATA_DIR: dataDir, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  void exited.then(() => running.delete(child));
  const deadline = Date.now() + timeoutMs;
  while (!output.includes('is listening')) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      if (child.exitCode !== null && output.includes(`EADDRINUSE: address already in use 127.0.0.1:${port}`)) throw new PortTaken(`${name}: port ${port} was taken`);
      throw new Error(`${name} did not start (exit code ${child.exitCode}):\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const url = `http://127.0.0.1:${port}`;
  return {
    name,
    url,
    dataDir,
    child,
    output: () => output,
    request(pathname, init = {}) {
      const headers = new Headers(init.headers);
      if (init.token) headers.set('authorization', `Bearer ${init.token}`);
      let body = init.body;
      if (init.json !== undefined) {
        headers.set('content-type', 'application/json');
        body = JSON.stringify(init.json);
      }
      return fetch(url + pathname, { ...init, headers, body });
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Kills whatever a failed test left running. */
export async function stopAllAppProcesses(): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise((resolve) => {
          child.once('exit', resolve);
          child.kill('SIGTERM');
        }),
    ),
  );
}

/** Every file below a folder (relative paths), for checking what a process wrote to its DATA_DIR. */
export function filesBelow(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => fs.statSync(path.join(dir, name)).isFile());
}
