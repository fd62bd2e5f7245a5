import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileTypeFromFile } from 'file-type';
import { loadSharp } from './sharp.js';
import { AppError, badInput } from '../../core/errors.js';
import { THUMBNAIL_WIDTH } from './image-variants.js';
import { ACCEPTED_EXTENSIONS, MediaKind, formatOfFileName, formatOfSniffedExt, type MediaFormat } from './media-formats.js';
import { MAX_FILE_NAME_LENGTH, NOT_SINGLE_LINE } from '../../rules/index.js';

/** One file of an upload request as it arrives: its name as the client sent it, and its bytes. */
export interface IncomingUpload {
  fileName: string;
  stream: Readable;
}

/** A file received, checked and written to the staging directory, not yet stored nor recorded. */
export interface StagedUpload {
  fileName: string;
  format: MediaFormat;
  size: number;
  width: number | null;
  height: number | null;
  /** The storage key of the original (`<random>.<ext>`) and of its thumbnail. */
  key: string;
  thumbnailKey: string | null;
  stagedFile: string;
  stagedThumbnail: string | null;
}

export { THUMBNAIL_WIDTH };

/** Staged files older than this were left by a process that stopped mid-upload: no upload lasts that long. */
export const STALE_STAGING_MS = 6 * 3600_000;

/**
 * Receives upload streams into a staging directory: stops reading at the size limit, checks the
 * content against the extension (magic bytes), reads image dimensions and writes the thumbnail.
 * Nothing is buffered whole in memory.
 *
 * Every process stages into a folder of its own below a shared root, so that processes sharing a
 * disk never touch each other's uploads in progress; what is left behind is swept once it is stale.
 */
export class UploadStager {
  readonly dir: string;

  constructor(
    readonly root: string,
    readonly maxFileBytes: number,
  ) {
    this.dir = path.join(root, `${os.hostname().replace(/[^\w.-]/g, '_')}-${process.pid}-${crypto.randomBytes(4).toString('hex')}`);
  }

  /**
   * Removes what stopped processes left half-received: files below the root older than `maxAgeMs`,
   * then the folders they leave empty. A sibling's upload in progress is fresh and stays.
   */
  async sweep(maxAgeMs = STALE_STAGING_MS, now = Date.now()): Promise<number> {
    return sweepStale(this.root, now - maxAgeMs, this.dir);
  }

  /** Removes this process's own staging folder (at shutdown, once no request is running). */
  async close(): Promise<void> {
    await fs.promises.rm(this.dir, { recursive: true, force: true });
  }

  async stage(incoming: IncomingUpload): Promise<StagedUpload> {
    const fileName = sanitizeFileName(incoming.fileName);
    if (!fileName) {
      incoming.stream.resume();
      throw badInput('Every file needs a name.', 'files');
    }
    const declared = formatOfFileName(fileName);
    if (!declared) {
      incoming.stream.resume();
      throw unsupported(`"${fileName}" is not a supported file type (accepted: ${ACCEPTED_EXTENSIONS.join(', ')}).`);
    }

    await fs.promises.mkdir(this.dir, { recursive: true });
    const random = crypto.randomBytes(18).toString('base64url');
    const stagedFile = path.join(this.dir, `${random}.part`);
    const staged: StagedUpload = {
      fileName,
      format: declared,
      size: 0,
      width: null,
      height: null,
      key: `${random}.${declared.ext}`,
      thumbnailKey: null,
      stagedFile,
      stagedThumbnail: null,
    };
    try {
      staged.size = await this.receive(incoming.stream, stagedFile, fileName);
      const sniffed = formatOfSniffedExt((await fileTypeFromFile(stagedFile))?.ext);
      if (!sniffed) throw unsupported(`"${fileName}" is not a supported image or audio file.`);
      if (sniffed !== declared) throw unsupported(`"${fileName}" holds ${sniffed.mime} content, which does not match its extension.`);
      if (declared.kind === MediaKind.IMAGE) await this.inspectImage(staged, path.join(this.dir, `${random}.thumb.part`));
      return staged;
    } catch (error) {
      await this.discard([staged]);
      throw error;
    }
  }

  /** Removes what is still staged (stored files have already been moved away). */
  async discard(staged: StagedUpload[]): Promise<void> {
    const files = staged.flatMap((s) => [s.stagedFile, s.stagedThumbnail]).filter((f): f is string => Boolean(f));
    await Promise.all(files.map((file) => fs.promises.rm(file, { force: true })));
  }

  private async receive(stream: Readable, target: string, fileName: string): Promise<number> {
    let size = 0;
    const max = this.maxFileBytes;
    const limiter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (size > max) callback(tooLarge(fileName, max));
        else callback(null, chunk);
      },
    });
    try {
      await pipeline(stream, limiter, (await this.create(target)).createWriteStream());
    } catch (error) {
      const known = uploadErrorToAppError(error, max);
      if (known) throw known;
      // A disk error (it has a syscall) is ours; anything else broke on the way in: a cut or malformed request.
      if ((error as NodeJS.ErrnoException).syscall) throw error;
      throw badInput(`"${fileName}" did not arrive whole: the upload was interrupted or malformed.`, 'files');
    }
    return size;
  }

  /** A new file in this process's folder; the folder is made again if a sweep took it while it was idle and empty. */
  private async create(file: string): Promise<fs.promises.FileHandle> {
    try {
      return await fs.promises.open(file, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      await fs.promises.mkdir(this.dir, { recursive: true });
      return fs.promises.open(file, 'wx');
    }
  }

  private async inspectImage(staged: StagedUpload, thumbnailFile: string): Promise<void> {
    const sharp = await loadSharp();
    try {
      const image = sharp(staged.stagedFile, { failOn: 'error' });
      const meta = await image.metadata();
      // Dimensions as displayed: an EXIF-rotated photo reports its turned size.
      staged.width = meta.autoOrient?.width ?? meta.width ?? null;
      staged.height = meta.autoOrient?.height ?? meta.height ?? null;
      await sharp(staged.stagedFile, { failOn: 'error' })
        .autoOrient()
        .resize({ width: THUMBNAIL_WIDTH, withoutEnlargement: true })
        .webp({ quality: 80 })
        .toFile(thumbnailFile);
    } catch {
      await fs.promises.rm(thumbnailFile, { force: true });
      throw unsupported(`"${staged.fileName}" could not be read as an image.`);
    }
    staged.stagedThumbnail = thumbnailFile;
    staged.thumbnailKey = staged.key.replace(/\.[a-z0-9]+$/, '.thumb.webp');
  }
}

/** What may not stand in a file's name: the characters that break a line (shared rule). */
const LINE_BREAKING = new RegExp(NOT_SINGLE_LINE.source, 'g');

/** The base name only, without control characters, trimmed, at most 255 characters (keeping the extension). */
export function sanitizeFileName(raw: string | undefined | null): string {
  const base = (raw ?? '').split(/[/\\]/).pop() ?? '';
  let name = base.normalize('NFC').replace(LINE_BREAKING, '').trim();
  if (name === '.' || name === '..') return '';
  if (name.length > MAX_FILE_NAME_LENGTH) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : '';
    name = name.slice(0, MAX_FILE_NAME_LENGTH - ext.length) + ext;
  }
  return name;
}

const unsupported = (message: string) => new AppError('UNSUPPORTED_MEDIA_TYPE', message);

const tooLarge = (fileName: string | null, maxBytes: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `${fileName ? `"${fileName}" is` : 'A file is'} larger than the limit of ${formatBytes(maxBytes)}.`);

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${+(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/**
 * Errors of the multipart layers (graphql-upload throws http-errors: 413 for a file over the size
 * limit and also for too many files, 400 for a malformed request) as domain errors.
 */
export function uploadErrorToAppError(error: unknown, maxFileBytes?: number): AppError | undefined {
  if (error instanceof AppError) return error;
  const status = (error as { status?: unknown } | null)?.status;
  const message = error instanceof Error ? error.message : '';
  if (status === 413 && /max file uploads exceeded/i.test(message)) return badInput(`At most ${parseInt(message, 10) || 20} files can be uploaded at once.`, 'files');
  if (status === 413) return tooLarge(null, maxFileBytes ?? (parseInt(message.replace(/^\D+/, ''), 10) || 0));
  if (status === 400) return badInput(message || 'The upload request is malformed.', 'files');
  return undefined;
}

/** Deletes files older than `before` below `dir` and the folders left empty (never `keep`); returns how many files went. */
async function sweepStale(dir: string, before: number, keep: string): Promise<number> {
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let removed = 0;
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    try {
      if (entry.isDirectory()) {
        // Its age before the sweep: removing stale files makes a folder look fresh.
        const stale = (await fs.promises.stat(full)).mtimeMs < before;
        removed += await sweepStale(full, before, keep);
        // A folder is dropped only when it was stale and is now empty: a sibling's active folder stays.
        if (full !== keep && stale && (await fs.promises.readdir(full)).length === 0) await fs.promises.rmdir(full);
      } else if ((await fs.promises.stat(full)).mtimeMs < before) {
        await fs.promises.rm(full, { force: true });
        removed += 1;
      }
    } catch (error) {
      // Another process removed it (or wrote into the folder) meanwhile: that is its business.
      if (!['ENOENT', 'ENOTEMPTY'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    }
  }
  return removed;
}
