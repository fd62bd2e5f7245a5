import pino, { type Logger } from 'pino';
import type { AppConfig } from '../../server/src/config.js';
import { logSerializers } from './log-serializers.js';
import type { RouteTemplates } from './route-templates.js';

/**
 * JSON lines in production and when not on a terminal; pretty, coloured lines for a developer.
 * Requests and errors are written without the secrets of links (see log-serializers.ts), by the
 * templates of the routes the app mounts (pass the same `templates` to startApp).
 */
export function createLogger(config: AppConfig, templates: RouteTemplates): Logger {
  const pretty = !config.production && process.stdout.isTTY;
  return pino({
    level: config.logLevel,
    serializers: logSerializers(templates),
    redact: ['req.headers.authorization', 'req.headers.cookie'],
    ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } } } : {}),
  });
}
