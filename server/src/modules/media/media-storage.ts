import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * What to store: a local file made by the server (consumed: moved or deleted once stored), a stream,
 * or bytes in memory.
 */
export type StorageSource = { stagedFile: string } | { stream: Readable } | { bytes: Buffer };

/** An inclusive byte range `start..end`. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where the bytes of media files live: the local disk or an S3-compatible bucket. The services only
 * speak to this interface. Keys are names the services make (`<random>.<ext>`, `<random>.thumb.webp`,
 * `<random>.<variant>.<ext>`), never user input.
 */
export interface MediaStorage {
  /** A short name for logs and readiness answers (`disk`, `s3`). */
  readonly kind: string;
  /** Stores the bytes under `key`, replacing what was there. */
  put(key: string, source: StorageSource, contentType: string): Promise<void>;
  /** The stored object's size, or null when there is none. */
  stat(key: string): Promise<{ size: number } | null>;
  /** The bytes, or the inclusive byte range of them; rejects when the object is missing. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** Removes the objects; a key that is already gone is not an error. */
  remove(keys: string[]): Promise<void>;
  /** Resolves when the storage can be used (readiness); rejects with the reason otherwise. */
  check(): Promise<void>;
  /** Releases what the storage holds open (connections); at shutdown. */
  destroy?(): void;
}

const KEY = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9]+)+$/;

/** Keys are made by the service; this check only makes sure no other path can ever be reached. */
export function assertStorageKey(key: string): void {
  if (!KEY.test(key)) throw new Error(`Invalid storage key "${key}"`);
}

/** Files on the local disk, flat under one directory (`DATA_DIR/uploads`). */
export class LocalDiskStorage implements MediaStorage {
  readonly kind = 'disk';

  constructor(readonly root: string) {}

  private file(key: string): string {
    assertStorageKey(key);
    return path.join(this.root, key);
  }

  async put(key: string, source: StorageSource): Promise<void> {
    const target = this.file(key);
    await fs.promises.mkdir(this.root, { recursive: true });
    if ('stagedFile' in source) {
      try {
        await fs.promises.rename(source.stagedFile, target);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      }
      // The staging directory is on another device: copy, then drop the staged file.
      await this.write(target, fs.createReadStream(source.stagedFile));
      await fs.promises.rm(source.stagedFile, { force: true });
      return;
    }
    await this.write(target, 'stream' in source ? source.stream : Readable.from([source.bytes]));
  }

  /** Writes beside the target and renames, so that a reader never sees half a file. */
  private async write(target: string, stream: Readable): Promise<void> {
    const partial = `${target}.${process.pid}.writing`;
    try {
      await pipeline(stream, fs.createWriteStream(partial));
      await fs.promises.rename(partial, target);
    } catch (error) {
      await fs.promises.rm(partial, { force: true });
      throw error;
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const stats = await fs.promises.stat(this.file(key));
      return stats.isFile() ? { size: stats.size } : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const handle = await fs.promises.open(this.file(key), 'r');
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async remove(keys: string[]): Promise<void> {
    await Promise.all(keys.map((key) => fs.promises.rm(this.file(key), { force: true })));
  }

  async check(): Promise<void> {
    await fs.promises.mkdir(this.root, { recursive: true });
    await fs.promises.access(this.root, fs.constants.R_OK | fs.constants.W_OK);
  }
}
