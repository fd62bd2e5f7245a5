/**
 * Gives the memory glibc keeps after it was freed back to the system, every few seconds.
 *
 * glibc's malloc returns freed memory to the system only from the top of its heap. Memory freed
 * below something still in use stays in the process. A web process frees a lot of it: compressing and
 * decompressing pages, socket reads, V8's freed array buffers. Its cache's entries keep small blocks
 * alive in between. A measured web process kept 17–43 MiB free like this after a crawl and a load of
 * 10,000 product pages (`npm run bench -- pages`). `malloc_trim(0)` hands every free page in every
 * arena back (what Deno, rippled and others call for the same reason). A call runs on a thread of
 * libuv's pool, so that requests do not wait for it. Where the C library is not glibc (or the call
 * cannot be made), this does nothing.
 */
import { createRequire } from 'node:module';

/** Frees what glibc holds but no longer uses, on a thread of libuv's pool; answers whether it gave any back. */
export type Trim = () => Promise<boolean>;

let loaded: Trim | null | undefined;

/** `malloc_trim(0)` of this process's glibc, or null when the process does not run on glibc. */
export function glibcTrim(): Trim | null {
  if (loaded !== undefined) return loaded;
  loaded = null;
  if (process.platform !== 'linux') return loaded;
  try {
    // koffi calls a C function of a loaded library with no compiler (its builds ship prebuilt).
    // `libc.so.6` is glibc's name: on musl (Alpine) loading it fails, and nothing is trimmed.
    const koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi');
    const mallocTrim = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)');
    // A trim walks every free block: 6–30 ms after a load of 10,000 pages, off the main thread.
    loaded = () => new Promise((resolve, reject) => mallocTrim.async(0, (error: unknown, result: number) => (error ? reject(error) : resolve(result === 1))));
  } catch {
    // Without the library the process only keeps more memory.
  }
  return loaded;
}

/**
 * Trims now (what starting the shop freed) and then every `seconds`, never two at once (the timer
 * does not keep the process alive); answers how to stop. `trim` is for tests.
 */
export function startMemoryTrim(seconds: number, trim: Trim | null = glibcTrim()): () => void {
  if (!trim) return () => undefined;
  let running = false;
  const run = () => {
    if (running) return;
    running = true;
    trim().then(
      () => (running = false),
      () => (running = false),
    );
  };
  run();
  const timer = setInterval(run, seconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
