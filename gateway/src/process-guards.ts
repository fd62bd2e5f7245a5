import type { Logger } from 'pino';

export interface GuardedProcess {
  on(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
  on(event: 'uncaughtException', listener: (error: Error) => void): unknown;
}

/**
 * The process-level safety net. A promise rejected with nobody listening is logged as an error, with
 * its reason, and the shop keeps serving (every request path handles its own errors; such a rejection
 * is a bug to fix, not a reason to drop every request in flight). An uncaught exception leaves the
 * process in an unknown state: it is logged as fatal and the process stops in order (`shutdown`),
 * with exit code 1, so that its supervisor starts a clean one instead of it limping on.
 */
export function installProcessGuards(proc: GuardedProcess, log: Logger, shutdown: (code: number) => void): void {
  proc.on('unhandledRejection', (reason) => {
    log.error({ err: reason instanceof Error ? reason : new Error(String(reason)) }, 'unhandled promise rejection');
  });
  proc.on('uncaughtException', (error) => {
    log.fatal({ err: error }, 'uncaught exception: stopping');
    shutdown(1);
  });
}
