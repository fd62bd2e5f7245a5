/**
 * Builds the shop into `dist/`: the server (tsc) and the web client (codegen + Vite, into
 * `dist/web/dist`, its server renderer into `dist/web/ssr`), stamped with a hash of the sources it was built from.
 *
 *   node scripts/build.mjs             build now
 *   node scripts/build.mjs --if-stale  build only when `dist/` is missing or its sources changed
 *
 * Safe to run several times at once: one build runs at a time (a lock folder), each builds into a
 * fresh temporary folder and swaps it in with renames, so a shop serving the old build never sees a
 * half-written one, and a start that waited on another's build finds it done.
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(root, 'dist');
const STAMP = path.join(DIST, 'build-stamp.json');
const LOCK = path.join(root, '.build.lock');
/** A lock whose owner is gone, or older than this, is taken over (a build takes about a minute). */
const LOCK_STALE_MS = 15 * 60_000;

/** Everything a build reads: a change to any of these makes the build stale. */
const SOURCE_DIRS = ['server', 'gateway', 'migrations', 'web'];
const SOURCE_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'codegen.ts', 'schema.graphql'];
/** Outputs and generated files inside the source folders. */
const IGNORED = new Set(['node_modules', 'dist', path.join('web', 'ssr'), path.join('web', 'src', 'apollo', 'generated')]);
/** Files the server reads at run time: the e-card page's styles and script (server/src/modules/ecard/ecard-assets.ts lists the same). */
const ECARD_FILES = ['web/src/common/card/opening-card.css', 'server/src/modules/ecard/ecard-page.css', 'server/src/modules/ecard/ecard-page.script.js'];
/** The group card's signing page and signature pages (server/src/modules/group-card/group-card-assets.ts lists the same). */
const GROUP_CARD_FILES = ['server/src/modules/group-card/sign-page.css', 'server/src/modules/group-card/sign-page.script.js', 'server/src/modules/group-card/signature-pages.css'];

export function sourceHash() {
  const hash = crypto.createHash('sha256');
  const visit = (relative) => {
    const full = path.join(root, relative);
    if (!fs.existsSync(full)) return;
    if (fs.statSync(full).isDirectory()) {
      for (const name of fs.readdirSync(full).sort()) {
        const child = path.join(relative, name);
        if (!IGNORED.has(name) && !IGNORED.has(child)) visit(child);
      }
      return;
    }
    hash.update(relative).update('\0').update(fs.readFileSync(full)).update('\0');
  };
  [...SOURCE_DIRS, ...SOURCE_FILES].forEach(visit);
  return hash.digest('hex');
}

/** Why the build in dist/ cannot be used as it is, or null when it is current. */
export function staleReason(hash = sourceHash()) {
  if (!fs.existsSync(path.join(DIST, 'gateway', 'src', 'main.js')) || !fs.existsSync(path.join(DIST, 'web', 'dist', 'index.html')) || !fs.existsSync(path.join(DIST, 'web', 'ssr', 'entry-server.js'))) return 'there is no build yet';
  try {
    if (JSON.parse(fs.readFileSync(STAMP, 'utf8')).sources === hash) return null;
  } catch {
    return 'the build has no stamp';
  }
  return 'the sources changed since the last build';
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Takes the build lock, waiting while another build holds it; returns the release function. */
async function lock() {
  let told = false;
  for (;;) {
    try {
      fs.mkdirSync(LOCK);
      fs.writeFileSync(path.join(LOCK, 'owner.json'), JSON.stringify({ pid: process.pid, host: os.hostname(), at: Date.now() }));
      return () => fs.rmSync(LOCK, { recursive: true, force: true });
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    let owner = null;
    try {
      owner = JSON.parse(fs.readFileSync(path.join(LOCK, 'owner.json'), 'utf8'));
    } catch {
      // Just made, owner not written yet; or left empty by a crash (judged by the folder's age).
    }
    const age = Date.now() - (owner?.at ?? fs.statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    const gone = owner && owner.host === os.hostname() && !isAlive(owner.pid);
    if (gone || age > LOCK_STALE_MS) {
      fs.rmSync(LOCK, { recursive: true, force: true });
      continue;
    }
    if (!told) {
      console.log(`Another build is running (pid ${owner?.pid ?? '?'}); waiting for it.`);
      told = true;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function run(command, args) {
  const bin = path.join(root, 'node_modules', '.bin', command);
  const result = spawnSync(bin, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit code ${result.status ?? result.signal})`);
}

function build(hash) {
  const work = fs.mkdtempSync(path.join(root, '.build-'));
  const out = path.join(work, 'dist');
  try {
    const started = Date.now();
    console.log('Building the server...');
    run('tsc', ['-p', 'tsconfig.build.json', '--outDir', out]);
    // The e-card page's styles and script, at the same place beside the compiled server.
    for (const file of [...ECARD_FILES, ...GROUP_CARD_FILES]) fs.cpSync(path.join(root, file), path.join(out, file));
    console.log('Building the web client...');
    run('graphql-codegen', ['--config', 'codegen.ts']);
    run('vite', ['build', '--config', 'web/vite.config.ts', '--outDir', path.join(out, 'web', 'dist'), '--emptyOutDir', '--logLevel', 'warn']);
    // The storefront's server renderer (web/src/entry-server.tsx), beside the client: gateway/src/server-render.ts.
    run('vite', ['build', '--config', 'web/vite.config.ts', '--ssr', '--outDir', path.join(out, 'web', 'ssr'), '--emptyOutDir', '--logLevel', 'warn']);
    fs.writeFileSync(path.join(out, 'build-stamp.json'), JSON.stringify({ sources: hash, builtAt: new Date().toISOString() }, null, 2) + '\n');
    // Swap: the old build moves aside and the new one in; each rename is atomic.
    const old = path.join(work, 'old');
    if (fs.existsSync(DIST)) fs.renameSync(DIST, old);
    fs.renameSync(out, DIST);
    console.log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

async function main() {
  const ifStale = process.argv.includes('--if-stale');
  if (ifStale && !staleReason()) {
    console.log('The build is up to date.');
    return;
  }
  const release = await lock();
  try {
    // Checked again under the lock: a build that ran while this one waited may have done the work.
    const hash = sourceHash();
    const reason = staleReason(hash);
    if (ifStale && !reason) {
      console.log('The build is up to date.');
      return;
    }
    if (reason) console.log(`Building: ${reason}.`);
    build(hash);
  } finally {
    release();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
