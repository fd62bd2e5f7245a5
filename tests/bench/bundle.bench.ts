/**
 * Storefront weight: the JavaScript a shopper's browser loads before the first screen (the entry
 * script and what it preloads, from web/dist/index.html), gzipped, and a check that the admin console
 * stays out of it in a chunk of its own that loads only when an admin opens it.
 */
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const DIST = path.resolve('web/dist');

export interface BundleResult {
  initial: { file: string; gzipKb: number }[];
  initialGzipKb: number;
  adminChunk: string;
  adminGzipKb: number;
}

const gzipKb = (file: string) => zlib.gzipSync(fs.readFileSync(path.join(DIST, file)), { level: 9 }).length / 1024;

export function runBundleBench(): BundleResult {
  if (!fs.existsSync(path.join(DIST, 'index.html')) || process.env.BENCH_BUILD === '1') execSync('npm run build:web', { stdio: 'inherit' });
  const html = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
  const initialFiles = [...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*rel="modulepreload"[^>]*\bhref)="\/?([^"]+\.js)"/g)].map((m) => m[1]!);
  const assets = fs.readdirSync(path.join(DIST, 'assets'));
  const admin = assets.find((name) => /^AdminDashboard-.*\.js$/.test(name));
  if (!admin) throw new Error('The admin console has no chunk of its own.');
  const adminChunk = `assets/${admin}`;
  if (initialFiles.includes(adminChunk)) throw new Error('The admin console is loaded with the storefront.');
  const initial = initialFiles.map((file) => ({ file, gzipKb: gzipKb(file) }));
  return { initial, initialGzipKb: initial.reduce((sum, f) => sum + f.gzipKb, 0), adminChunk, adminGzipKb: gzipKb(adminChunk) };
}

export function printBundle(result: BundleResult): void {
  console.log('\nStorefront initial JavaScript (gzip)');
  console.table([...result.initial.map((f) => ({ file: f.file, 'gzip KB': +f.gzipKb.toFixed(1) })), { file: 'total', 'gzip KB': +result.initialGzipKb.toFixed(1) }]);
  console.log(`Admin console: ${result.adminChunk}, ${result.adminGzipKb.toFixed(1)} KB gzip, loaded only when /admindash opens.`);
}
