import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { postParams, type GraphqlParams } from './graphql-cache.js';

/**
 * A GraphQL POST read ahead of Express (see CachedReads): its small JSON body is read from the
 * request, and when the read cache cannot answer it the bytes are put back at the front of the
 * request's stream (`unshift`, before its end was announced), so Express and its body parser read
 * the very request the client sent, as if nobody had looked.
 */

/** The largest body read ahead of Express: a storefront read's document and variables are far smaller. */
export const MAX_PEEKED_BODY = 16 * 1024;

/** The length of a body worth reading ahead of Express: plain JSON (as the body parser takes it), its length given; else null. */
function peekableLength(headers: IncomingHttpHeaders): number | null {
  if (headers['transfer-encoding'] !== undefined || headers['content-encoding'] !== undefined) return null;
  const type = headers['content-type'];
  if (type === undefined || !/^application\/json(\s*;\s*charset=utf-8)?$/i.test(type.trim())) return null;
  const length = Number(headers['content-length']);
  return Number.isInteger(length) && length > 0 && length <= MAX_PEEKED_BODY ? length : null;
}

/** A body's GraphQL parameters when it is a JSON object Apollo would read as one request, else null (Express judges it). */
function paramsOfBody(body: Buffer): GraphqlParams | null {
  try {
    return postParams(JSON.parse(body.toString('utf8')));
  } catch {
    return null;
  }
}

/**
 * Reads the `length` bytes of a request's body and hands them to `done`, in the tick the last of them
 * was read (a body `done` does not answer must be given back with `putBack` within that tick, before
 * the stream announces its end). A request that fails or closes first is dropped (its client is gone).
 */
function readBody(req: IncomingMessage, length: number, done: (body: Buffer, putBack: () => void) => void, failed: () => void): void {
  const chunks: Buffer[] = [];
  let got = 0;
  const stop = () => {
    req.off('readable', onReadable);
    req.off('error', onFailure);
    req.off('close', onFailure);
  };
  function onFailure() {
    stop();
    failed();
  }
  function onReadable() {
    let chunk: Buffer | null;
    while (got < length && (chunk = req.read() as Buffer | null) !== null) {
      chunks.push(chunk);
      got += chunk.length;
    }
    if (got < length) return;
    stop();
    const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    done(body, () => req.unshift(body));
  }
  req.on('readable', onReadable);
  req.on('error', onFailure);
  req.on('close', onFailure);
}

/**
 * Takes a GraphQL POST ahead of Express and returns true, or returns false when its body is not one to
 * read here: the body's parameters go to `answer`, and a request it does not answer goes to `express`
 * whole.
 */
export function takePost(req: IncomingMessage, res: ServerResponse, answer: (params: GraphqlParams) => boolean, express: (req: IncomingMessage, res: ServerResponse) => void): boolean {
  const length = peekableLength(req.headers);
  if (length === null) return false;
  readBody(
    req,
    length,
    (body, putBack) => {
      const params = paramsOfBody(body);
      if (params && answer(params)) return;
      putBack();
      express(req, res);
    },
    () => res.destroy(),
  );
  return true;
}
