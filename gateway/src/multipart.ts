import busboy from 'busboy';
import type { Request } from 'express';
import { badInput } from '../../server/src/core/errors.js';
import type { IncomingUpload } from '../../server/src/modules/media/media-upload.js';

export interface MultipartOptions {
  /** The (repeated) field the files come in. */
  field: string;
  maxFiles: number;
  maxFileBytes: number;
}

type Item = { upload: IncomingUpload } | { error: Error } | { done: true };

/**
 * The files of a multipart/form-data request, one at a time as they arrive, without buffering them:
 * the consumer reads each stream before asking for the next. Whatever the client still sends after
 * the consumer stops (an error, a refusal) is discarded unread into any store.
 */
export async function* multipartUploads(req: Request, options: MultipartOptions): AsyncGenerator<IncomingUpload> {
  if (!req.is('multipart/form-data')) throw badInput(`Send the files as multipart/form-data in the field "${options.field}".`, options.field);
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      defParamCharset: 'utf8',
      // One byte past the limit, so that the reader sees the file is too large rather than a silently cut one.
      limits: { files: options.maxFiles, fileSize: options.maxFileBytes + 1, fields: 50, parts: options.maxFiles + 50 },
    });
  } catch {
    throw badInput('The multipart request is malformed.', options.field);
  }

  const queue: Item[] = [];
  let wake: (() => void) | undefined;
  const push = (item: Item) => {
    queue.push(item);
    wake?.();
    wake = undefined;
  };
  parser.on('file', (name, stream, info) => {
    if (name !== options.field) {
      stream.resume();
      push({ error: badInput(`Unexpected file field "${name}": send the files in "${options.field}".`, options.field) });
      return;
    }
    push({ upload: { fileName: info.filename ?? '', stream } });
  });
  parser.on('filesLimit', () => push({ error: badInput(`At most ${options.maxFiles} files can be uploaded at once.`, options.field) }));
  parser.on('error', () => push({ error: badInput('The multipart request is malformed.', options.field) }));
  parser.on('close', () => push({ done: true }));
  req.on('close', () => {
    if (!req.complete) push({ error: badInput('The upload was interrupted.', options.field) });
  });
  req.pipe(parser);

  try {
    for (;;) {
      if (!queue.length) await new Promise<void>((resolve) => (wake = resolve));
      const item = queue.shift()!;
      if ('error' in item) throw item.error;
      if ('done' in item) return;
      yield item.upload;
    }
  } finally {
    req.unpipe(parser);
    req.resume();
  }
}
