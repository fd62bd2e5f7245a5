import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * MJML runs on a thread of its own. Loading it takes about 0.75 s of CPU and 20 MiB of heap: done on
 * the main thread by the first e-mail after a start, it held every request of the shop up for that
 * long. The thread is started by the first compile and ends when no compile came for a minute,
 * giving its memory back: a process compiles a handful of template shapes in its life.
 */
/** How long the thread outlives its last compile (tests shorten it). */
export const mjmlThread = { idleMs: 60_000, running: (): boolean => thread !== null };

/** The thread's script (CommonJS, evaluated as given): MJML with strict validation, one source per message. */
const script = (mjmlPath: string) => `
const { parentPort } = require('node:worker_threads');
const mjml2html = require(${JSON.stringify(mjmlPath)});
parentPort.on('message', async ({ id, source }) => {
  try {
    const result = await mjml2html(source, { validationLevel: 'strict', keepComments: false });
    parentPort.postMessage({ id, html: result.html, errors: result.errors.map((e) => e.formattedMessage) });
  } catch (error) {
    parentPort.postMessage({ id, errors: [String(error && error.message || error)] });
  }
});`;

interface Answer {
  id: number;
  html?: string;
  errors: string[];
}

let thread: Worker | null = null;
let idle: NodeJS.Timeout | null = null;
let nextId = 0;
const waiting = new Map<number, { resolve: (html: string) => void; reject: (error: Error) => void; name: string }>();

function start(): Worker {
  const worker = new Worker(script(createRequire(import.meta.url).resolve('mjml')), { eval: true });
  // Compiling never keeps the process alive; a compile in flight is awaited by its e-mail.
  worker.unref();
  worker.on('message', ({ id, html, errors }: Answer) => {
    const caller = waiting.get(id);
    if (!caller) return;
    waiting.delete(id);
    if (errors.length || html === undefined) caller.reject(new Error(`E-mail template "${caller.name}" is not valid MJML: ${errors.join('; ')}`));
    else caller.resolve(html);
    if (!waiting.size) restartIdleTimer();
  });
  const fail = (error: Error) => {
    // A thread ended for being idle had nothing in flight; the compiles waiting now are another thread's.
    if (thread !== worker) return;
    thread = null;
    for (const [id, caller] of waiting) {
      waiting.delete(id);
      caller.reject(error);
    }
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`The MJML thread ended (exit code ${code})`)));
  return worker;
}

function restartIdleTimer(): void {
  if (idle) clearTimeout(idle);
  idle = setTimeout(() => {
    idle = null;
    if (waiting.size || !thread) return;
    const ending = thread;
    thread = null;
    void ending.terminate();
  }, mjmlThread.idleMs);
  idle.unref();
}

/** Compiles MJML source on the MJML thread (strict validation: a template that is not valid MJML fails loudly). */
export function compileOnThread(source: string, name: string): Promise<string> {
  thread ??= start();
  if (idle) clearTimeout(idle);
  const id = nextId++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject, name });
    thread!.postMessage({ id, source });
  });
}
