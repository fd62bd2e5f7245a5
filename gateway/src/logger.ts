import pino, { type Logger } from 'pino';
import type { AppConfig } from '../../server/src/config.js';

/** JSON lines in production and when not on a terminal; pretty, coloured lines for a developer. */
export function createLogger(config: AppConfig): Logger {
  const pretty = !config.production && process.stdout.isTTY;
  return pino({
    level: config.logLevel,
    redact: ['req.headers.authorization', 'req.headers.cookie'],
    ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } } } : {}),
  });
}
