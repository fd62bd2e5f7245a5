/**
 * The shop's command-line tools, runnable from a checkout and from the Docker image alike:
 *
 *   node scripts/cli.mjs migrate up            `npm run migrate`: pending migrations, under the boot lock
 *   node scripts/cli.mjs backup backup FILE    `npm run backup -- FILE`
 *   node scripts/cli.mjs backup restore FILE   `npm run restore -- FILE`
 *
 * In a checkout with its development dependencies a tool runs from the sources (through tsx), so it
 * always knows the newest migrations. Where there are no sources or no tsx (the Docker image:
 * production dependencies and `dist/` only) the built tool runs: no development dependency needed.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const TOOLS = { migrate: 'server/src/db/migrate-cli', backup: 'server/src/backup/backup-cli' };

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [tool, ...args] = process.argv.slice(2);
const module = TOOLS[tool];
if (!module) {
  console.error(`Usage: node scripts/cli.mjs (${Object.keys(TOOLS).join('|')}) ARGS...`);
  process.exit(2);
}
const sources = path.join(root, `${module}.ts`);
const tsx = path.join(root, 'node_modules', 'tsx');
const built = path.join(root, 'dist', `${module}.js`);

if (fs.existsSync(sources) && fs.existsSync(tsx)) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', sources, ...args], { cwd: root, stdio: 'inherit' });
  process.exitCode = result.status ?? 1;
} else if (fs.existsSync(built)) {
  // The built tool reads its arguments from process.argv, as it would when started on its own.
  process.argv.splice(2, 1);
  await import(pathToFileURL(built).href);
} else {
  console.error(`There is no ${tool} tool to run: build the shop first (\`npm run build\` puts it in dist/).`);
  process.exitCode = 1;
}
