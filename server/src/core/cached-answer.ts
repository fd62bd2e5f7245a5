import crypto from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

/** Answers smaller than this are sent as they are (compressing them saves less than it costs). */
export const COMPRESS_MIN_BYTES = 1024;

export type Encoding = 'br' | 'gzip';

/** An answer's bytes as kept outside memory: its ETag, its plain length and both compressed forms. */
export interface StoredForms {
  etag: string;
  length: number;
  br: Buffer;
  gzip: Buffer;
}

/** A stored answer as read back: one compressed form at least (the one its first caller takes). */
export type StoredAnswer = Pick<StoredForms, 'etag' | 'length'> & { br: Buffer | null; gzip: Buffer | null };

/** What kind of document an answer is: its Content-Type, and what shared caches must vary it on. */
export type AnswerKind = 'json' | 'html';

const BROTLI = (length: number) => ({
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: length },
});

/**
 * What an answer costs in memory besides its bytes: the answer object and its Buffers, and the
 * cache's own bookkeeping of the entry (its map and list slots, its namespace index, its time
 * limit). Measured on Node 24 (tests/unit/read-cache-memory.test.ts holds the estimate honest).
 */
export const ANSWER_OVERHEAD = 320;
export const BUFFER_OVERHEAD = 240;

/**
 * A copy of `bytes` in memory of its own and of its exact size. Small Buffers are slices of a shared
 * 8 kB pool, and zlib's results slices of its 16 kB output chunk: kept for long in the cache, each
 * would hold the whole block alive.
 */
function owned(bytes: Buffer): Buffer {
  const copy = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(copy);
  return copy;
}

const brotliAsync = promisify(zlib.brotliCompress);
const gzipAsync = promisify(zlib.gzip);

function compress(body: Buffer, encoding: Encoding): Buffer {
  return owned(encoding === 'br' ? zlib.brotliCompressSync(body, BROTLI(body.length)) : zlib.gzipSync(body, { level: 6 }));
}

/**
 * A storefront answer as it goes out, made once when the answer is made and then shared by every
 * request for it: the bytes, their strong ETag, and their br and gzip forms, each compressed at most
 * once, when a caller first accepts it (never per request).
 *
 * What is kept depends on the answer's size: a small answer (JSON) keeps its bytes as they are,
 * the form most of its callers take; a large one (a page) keeps only its compressed forms, which are
 * a quarter of its size, and gives its plain bytes to the rare caller that accepts no compression by
 * decompressing one of them (tens of microseconds for a page).
 */
export class CachedAnswer {
  /** The length of the plain bytes. */
  readonly length: number;
  private plain: Buffer | null;
  private br: Buffer | null;
  private gzip: Buffer | null;
  /** Called when the answer grew (a compressed form was added), so that its cache counts it again. */
  onResize: (() => void) | null = null;

  private constructor(
    readonly kind: AnswerKind,
    readonly etag: string,
    length: number,
    plain: Buffer | null,
    forms: Partial<Record<Encoding, Buffer>>,
  ) {
    this.length = length;
    this.plain = plain;
    this.br = forms.br ?? null;
    this.gzip = forms.gzip ?? null;
  }

  /** An answer of `body`, its ETag the body's hash. Without its plain bytes it keeps at least one compressed form, the one asked for first, else gzip (the cheaper to make and to undo). */
  private static of(kind: AnswerKind, body: Buffer, keepPlain: boolean, first: Encoding | null): CachedAnswer {
    const etag = etagOf(body);
    if (keepPlain || body.length < COMPRESS_MIN_BYTES) return new CachedAnswer(kind, etag, body.length, body, {});
    return new CachedAnswer(kind, etag, body.length, null, { [first ?? 'gzip']: compress(body, first ?? 'gzip') });
  }

  /** A JSON answer: its bytes are kept as they are (most callers of the JSON reads take them so). */
  static json(json: string): CachedAnswer {
    return CachedAnswer.of('json', textBytes(json), true, null);
  }

  /**
   * A page: only compressed forms are kept, the first being `first` (the encoding the first caller
   * accepts), unless `keepPlain` (a few pages visited most, e.g. the home page); `ttlMs` bounds how
   * long it may be kept (e.g. until a scheduled post goes live).
   */
  static html(html: string, first: Encoding | null = null, ttlMs?: number, keepPlain = false): CachedAnswer {
    const answer = CachedAnswer.of('html', textBytes(html), keepPlain, first);
    answer.ttlMs = ttlMs;
    return answer;
  }

  /**
   * A page whose compressed forms were made before (by `formsOf`) and kept elsewhere (in
   * PostgreSQL): nothing is hashed or compressed again. One form is enough (the one its first caller
   * takes); another is made from it when first asked for.
   */
  static stored(kind: AnswerKind, forms: StoredAnswer): CachedAnswer {
    return new CachedAnswer(kind, forms.etag, forms.length, null, { br: forms.br ? owned(forms.br) : undefined, gzip: forms.gzip ? owned(forms.gzip) : undefined });
  }

  /**
   * A page's forms to store, compressed off the event loop (zlib's thread pool) with the settings the
   * cache's own answers use: drawing in the background keeps the process's requests moving.
   */
  static async formsOf(html: string): Promise<StoredForms> {
    const body = textBytes(html);
    const [br, gzip] = await Promise.all([brotliAsync(body, BROTLI(body.length)), gzipAsync(body, { level: 6 })]);
    return { etag: etagOf(body), length: body.length, br: owned(br), gzip: owned(gzip) };
  }

  /** How long the answer may be kept at most, when it knows better than the cache's own limit. */
  ttlMs: number | undefined;

  /** Whether the answer is worth compressing at all. */
  get compressible(): boolean {
    return this.length >= COMPRESS_MIN_BYTES;
  }

  /** The bytes in `encoding` (null: as they are). A compressed form is made the first time it is asked for. */
  bytes(encoding: Encoding | null): Buffer {
    if (encoding === null || !this.compressible) return this.plain ?? this.decompressed();
    let form = encoding === 'br' ? this.br : this.gzip;
    if (!form) {
      form = compress(this.plain ?? this.decompressed(), encoding);
      this.set(encoding, form);
      this.onResize?.();
    }
    return form;
  }

  /** The memory it takes: its Buffers and the objects around them. */
  get size(): number {
    let size = ANSWER_OVERHEAD + this.etag.length;
    for (const buffer of [this.plain, this.br, this.gzip]) if (buffer) size += buffer.length + BUFFER_OVERHEAD;
    return size;
  }

  private set(encoding: Encoding, form: Buffer): void {
    if (encoding === 'br') this.br = form;
    else this.gzip = form;
  }

  private decompressed(): Buffer {
    return this.gzip ? zlib.gunzipSync(this.gzip) : zlib.brotliDecompressSync(this.br!);
  }
}

/** An answer's strong ETag: a digest of its plain bytes. */
const etagOf = (body: Buffer): string => `"${crypto.createHash('sha1').update(body).digest('base64url')}"`;

function textBytes(text: string): Buffer {
  const body = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  body.write(text);
  return body;
}

/** The JSON answer of a storefront read. */
export const jsonAnswer = (json: string): CachedAnswer => CachedAnswer.json(json);
