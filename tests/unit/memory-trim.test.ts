import fs from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/src/config.js';
import { glibcTrim, startMemoryTrim } from '../../server/src/core/memory-trim.js';

/**
 * A web process frees much of its native memory below blocks that stay in use (its cache's entries),
 * and glibc keeps such memory in the process until `malloc_trim` hands it back (core/memory-trim.ts).
 */

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/** Resident memory of this process in MiB (from /proc: the figure `ps` and the benches report). */
function rssMiB(): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))![1]!;
  return Number(kb) / 1024;
}

const onGlibc = Boolean((process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime);

describe('memory trim', () => {
  it.runIf(process.platform === 'linux' && onGlibc)('gives back memory freed below blocks still in use, which glibc keeps otherwise', async () => {
    const trim = glibcTrim();
    expect(trim).not.toBeNull();
    await trim!();
    // 96 MiB of 2 kB blocks, as a cache's entries and the buffers freed around them, keeping one block in 32.
    let blocks: Buffer[] | null = Array.from({ length: 48 * 1024 }, () => Buffer.allocUnsafeSlow(2048).fill(7));
    const kept = blocks.filter((_, i) => i % 32 === 0);
    const before = process.memoryUsage().arrayBuffers;
    blocks = null;
    // The freed blocks' memory goes back to malloc once V8 has swept their buffers.
    await expect.poll(() => (gc(), before - process.memoryUsage().arrayBuffers), { timeout: 30_000, interval: 100 }).toBeGreaterThan(80 * 1024 * 1024);
    const held = rssMiB();
    expect(await trim!()).toBe(true);
    const trimmed = rssMiB();
    // 93 MiB were freed; all but the pages that hold a kept block come back.
    expect(held - trimmed).toBeGreaterThan(40);
    expect(kept.every((block) => block[2047] === 7)).toBe(true);
  });

  it('trims at start and then every interval, until stopped', async () => {
    let calls = 0;
    const stop = startMemoryTrim(0.02, async () => (calls++, true));
    expect(calls).toBe(1);
    await expect.poll(() => calls, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    stop();
    const after = calls;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(calls).toBe(after);
  });

  it('starts no trim while one is still running', async () => {
    let calls = 0;
    let finish: (released: boolean) => void = () => undefined;
    const stop = startMemoryTrim(0.02, () => (calls++, new Promise<boolean>((resolve) => (finish = resolve))));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(calls).toBe(1);
    finish(true);
    await expect.poll(() => calls, { timeout: 10_000 }).toBe(2);
    stop();
    finish(true);
  });

  it('does nothing where glibc cannot be called', () => {
    expect(startMemoryTrim(1, null)).toBeTypeOf('function');
  });

  it('trims every 10 seconds unless MEMORY_TRIM_SECONDS says otherwise', () => {
    expect(loadConfig({}).memoryTrimSeconds).toBe(10);
    expect(loadConfig({ MEMORY_TRIM_SECONDS: '30' }).memoryTrimSeconds).toBe(30);
    expect(() => loadConfig({ MEMORY_TRIM_SECONDS: 'never' })).toThrow('MEMORY_TRIM_SECONDS must be a positive number');
  });
});
