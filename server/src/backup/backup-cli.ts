/**
 * `npm run backup -- FILE` and `npm run restore -- FILE` (see backup.ts), with the shop's own
 * settings (DATA_DIR, DATABASE_URL, S3_BUCKET...). Exit code 1 and the reason on a failure.
 */
import 'reflect-metadata';
import pino from 'pino';
import { loadConfig } from '../config.js';
import { backup, restore } from './backup.js';

const [command, file] = process.argv.slice(2);
const log = pino({ level: process.env.LOG_LEVEL || 'info', ...(process.stdout.isTTY ? { transport: { target: 'pino-pretty' } } : {}) });

if ((command !== 'backup' && command !== 'restore') || !file) {
  console.error(`Usage: npm run ${command === 'restore' ? 'restore' : 'backup'} -- FILE   (e.g. backups/shop-$(date +%F).tar.gz)`);
  process.exitCode = 2;
} else {
  try {
    const manifest = command === 'backup' ? await backup(loadConfig(), file, log) : await restore(loadConfig(), file, log);
    const rows = manifest.database.tables.reduce((n, t) => n + t.rows, 0);
    const media = manifest.media.storage === 'disk' ? `${manifest.media.files} media files` : `${manifest.media.keys} bucket keys listed (bucket ${manifest.media.bucket})`;
    console.log(`${command === 'backup' ? 'Backed up' : 'Restored'} ${rows} rows in ${manifest.database.tables.length} tables and ${media}: ${file}`);
  } catch (error) {
    console.error(`${command} failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
