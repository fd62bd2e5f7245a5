import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { AppError } from '../../../server/src/core/errors.js';
import type { Services } from '../../../server/src/services.js';
import type { RouteDef } from '../route.js';

/** Stored names are random and never reused, so a served file never changes. */
const CACHE_FOREVER = 'public, max-age=31536000, immutable';

/**
 * Serving stored media under /api/uploads: `/{name}` and `/uploads/{name}` (the client loads
 * `/api/{file_path}` with file_path = `uploads/<name>`). Public, also while under construction.
 * Only names of stored rows are served, so no other path (`..`, encoded slashes) can be reached.
 */
export function uploadRoutes({ media }: Services): RouteDef[] {
  async function serve(ctx: Parameters<RouteDef['handler']>[0], req: Request, res: Response): Promise<void> {
    const name = req.params.name;
    const file = typeof name === 'string' ? await media.findServed(ctx, name) : null;
    if (!file) throw new AppError('NOT_FOUND', 'File not found');

    const etag = `"${file.key}"`;
    res.setHeader('Content-Type', file.contentType);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', CACHE_FOREVER);
    res.setHeader('Accept-Ranges', 'bytes');
    res.setHeader('ETag', etag);
    if (req.headers['if-none-match'] === etag) {
      res.status(304).end();
      return;
    }

    let range: { start: number; end: number } | undefined;
    const asked = req.headers.range ? req.range(file.size, { combine: true }) : undefined;
    if (asked === -1) {
      res.setHeader('Content-Range', `bytes */${file.size}`);
      res.removeHeader('Content-Type');
      res.removeHeader('Cache-Control');
      res.removeHeader('ETag');
      throw new AppError('RANGE_NOT_SATISFIABLE', `The requested range is not within the file (${file.size} bytes).`);
    }
    // A malformed header (-2) or several ranges are answered with the whole file, as HTTP allows.
    if (Array.isArray(asked) && asked.type === 'bytes' && asked.length === 1) {
      range = { start: asked[0].start, end: asked[0].end };
      res.status(206).setHeader('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`);
    }
    res.setHeader('Content-Length', String(range ? range.end - range.start + 1 : file.size));
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    // Opening the bytes can fail (the bucket is unreachable): nothing is sent yet, so the error is answered.
    const body = await media.storage.read(file.key, range);
    try {
      await pipeline(body, res);
    } catch (error) {
      // The client went away mid-file (seeking audio does that), or the storage failed: nothing to answer.
      if (!res.destroyed) ctx.log.warn({ err: error, key: file.key }, 'serving a media file failed');
      res.destroy();
    }
  }

  return [
    { method: 'get', path: '/:name', access: 'public', handler: serve },
    { method: 'get', path: '/uploads/:name', access: 'public', handler: serve },
  ];
}
