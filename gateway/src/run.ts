/** The process: reads the configuration, starts the shop, and stops it in order on SIGINT/SIGTERM. */
import { loadConfig } from '../../server/src/config.js';
import { startMemoryTrim } from '../../server/src/core/memory-trim.js';
import { startApp } from './boot.js';
import { createLogger } from './logger.js';
import { installProcessGuards } from './process-guards.js';
import { RouteTemplates } from './route-templates.js';

const config = loadConfig();
const templates = new RouteTemplates();
const log = createLogger(config, templates);

/** How long an orderly stop may take before the process exits anyway. */
const STOP_DEADLINE_MS = 15_000;

let stop: (() => Promise<void>) | null = null;
let stopping = false;
const shutdown = async (reason: string, code = 0) => {
  if (stopping) return;
  stopping = true;
  log.info({ reason }, 'shutting down');
  setTimeout(() => process.exit(code || 1), STOP_DEADLINE_MS).unref();
  await stop?.().catch((error: unknown) => log.error({ err: error }, 'stopping failed'));
  log.info('stopped');
  process.exit(code);
};
installProcessGuards(process, log, (code) => void shutdown('uncaughtException', code));

try {
  const app = await startApp(config, log, {}, { templates });
  const stopTrim = startMemoryTrim(config.memoryTrimSeconds);
  stop = async () => {
    stopTrim();
    await app.stop();
  };
  // HTTP first, then the ORM, then the embedded database (see startApp's stop).
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
} catch (error) {
  log.fatal({ err: error instanceof Error ? error : new Error(String(error)) }, 'could not start');
  process.exitCode = 1;
}
