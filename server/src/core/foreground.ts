import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The work a process does while someone waits for it: the requests it is answering. Background work
 * that shares the process (sending the e-mail queue) makes room for it, so that a shopper checking
 * out is not kept waiting by e-mails that may as well leave a moment later.
 */
export class Foreground {
  private active = 0;
  private since: number | null = null;
  private idle: { promise: Promise<void>; resolve: () => void } | null = null;

  /** Counts a request from its arrival until its response is finished or abandoned. */
  readonly track = (_req: IncomingMessage, res: ServerResponse): void => {
    res.once('close', this.begin());
  };

  /** Counts one piece of work until the returned function is called (once; later calls do nothing). */
  begin(): () => void {
    if (this.active++ === 0) this.since = performance.now();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--this.active > 0) return;
      this.since = null;
      if (this.idle) {
        const { resolve } = this.idle;
        this.idle = null;
        resolve();
      }
    };
  }

  /** Whether anything is being answered now. */
  get busy(): boolean {
    return this.active > 0;
  }

  /** Since when (`performance.now()`) something has been answered without a pause; null while idle. */
  get busySince(): number | null {
    return this.since;
  }

  /** Resolves as soon as nothing is being answered (at once when nothing is). */
  whenIdle(): Promise<void> {
    if (this.active === 0) return Promise.resolve();
    if (!this.idle) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => (resolve = done));
      this.idle = { promise, resolve };
    }
    return this.idle.promise;
  }
}
