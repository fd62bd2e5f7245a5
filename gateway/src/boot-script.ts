import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { RequestHandler } from 'express';
import { AppError } from '../../server/src/core/errors.js';
import { sendError } from './http-errors.js';

/** The address of a boot script by its content: `/boot.<16 hex digits>.js`. */
const HASHED = /^\/boot\.([0-9a-f]{16})\.js$/;

let current: { file: string; mtimeMs: number; href: string } | null = null;

/**
 * Where pages load web/public/boot.js from (it is copied into the build as it is): an address made
 * from its content, so that it is cached for good like every other script of the build, and a build
 * with another boot script has another address. `/boot.js` itself while the build has none.
 */
export function bootScriptHref(webDir: string): string {
  const file = path.join(webDir, 'boot.js');
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return '/boot.js';
  }
  if (!current || current.file !== file || current.mtimeMs !== stat.mtimeMs) {
    const hash = crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex').slice(0, 16);
    current = { file, mtimeMs: stat.mtimeMs, href: `/boot.${hash}.js` };
  }
  return current.href;
}

/**
 * Serves `/boot.<hash>.js` as boot.js (with its compressed copies, by the web assets' handler that
 * follows), marked to be cached for good; the address of another build's boot script is a 404.
 */
export function bootScript(webDir: string): RequestHandler {
  return (req, res, next) => {
    if (!HASHED.test(req.path) || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    if (req.path !== bootScriptHref(webDir)) return sendError(res, new AppError('NOT_FOUND', 'Not found'));
    req.url = '/boot.js';
    res.locals.immutable = true;
    next();
  };
}
