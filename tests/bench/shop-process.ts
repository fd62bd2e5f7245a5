/** A built shop started as its own process for a bench, as `npm run serve` starts it (plus BENCH_NODE_FLAGS). */
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './bench-kit.js';
import { root, rssMiB, serveCommand } from './shop-kit.js';

export interface ShopProcess {
  name: string;
  child: ChildProcess;
  url: string;
  /** The most resident memory seen, sampled every 200 ms. */
  peakRss: number;
  /** The end of what it wrote to stderr. */
  stderr(): string;
  /** SIGTERM, then waits for it to exit (nothing when it has exited already). */
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts the built shop with `env` on a free port and waits until its /readyz answers 200. */
export async function spawnShop(name: string, env: Record<string, string>): Promise<ShopProcess> {
  const serve = serveCommand(env);
  const port = await freePort();
  const child = spawn(process.execPath, serve.args, { cwd: root, env: { ...process.env, ...serve.env, ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr = (stderr + chunk).slice(-20_000)));
  const url = `http://127.0.0.1:${port}`;
  const shop: ShopProcess = {
    name,
    child,
    url,
    peakRss: 0,
    stderr: () => stderr,
    async stop() {
      clearInterval(sampler);
      if (child.exitCode !== null || child.signalCode) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
  const sampler = setInterval(() => {
    try {
      shop.peakRss = Math.max(shop.peakRss, rssMiB(child.pid!));
    } catch {
      clearInterval(sampler);
    }
  }, 200);
  sampler.unref();
  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}: ${stderr}`);
    if (performance.now() - started > 120_000) throw new Error(`${name} not ready within 120 s`);
    if (await fetch(`${url}/readyz`).then((res) => res.status === 200, () => false)) break;
    await sleep(100);
  }
  return shop;
}
