import { loadConfig } from '../../server/src/config.js';
import { startApp } from './boot.js';
import { createLogger } from './logger.js';

const config = loadConfig();
const log = createLogger(config);

try {
  const app = await startApp(config, log);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    await app.stop();
    log.info('stopped');
    process.exit(0);
  };
  // HTTP first, then the ORM, then the embedded database (see startApp's stop).
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
} catch (error) {
  log.fatal({ err: error instanceof Error ? error : new Error(String(error)) }, 'could not start');
  process.exitCode = 1;
}
