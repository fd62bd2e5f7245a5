/**
 * `npm run migrate [up]`: applies pending migrations to the configured database (DATABASE_URL, or the
 * embedded one under DATA_DIR), under the same PostgreSQL advisory lock as a starting shop.
 *
 * In a checkout with its development dependencies the migrator runs from the sources (through tsx),
 * so it always knows the newest migrations. Where there are no sources or no tsx (the Docker image:
 * production dependencies and `dist/` only) the built migrator runs: no development dependency needed.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sources = path.join(root, 'server', 'src', 'db', 'migrate-cli.ts');
const tsx = path.join(root, 'node_modules', 'tsx');
const built = path.join(root, 'dist', 'server', 'src', 'db', 'migrate-cli.js');

if (fs.existsSync(sources) && fs.existsSync(tsx)) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', sources, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
  process.exitCode = result.status ?? 1;
} else if (fs.existsSync(built)) {
  // The built migrator reads its command from process.argv as this script received it.
  await import(pathToFileURL(built).href);
} else {
  console.error('There is no migrator to run: build the shop first (`npm run build` puts it in dist/).');
  process.exitCode = 1;
}
