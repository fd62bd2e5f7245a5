import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where the bytes of media files live. The service only speaks to this interface, so that an
 * S3-compatible driver can replace the local disk without touching it. Keys are the names the
 * service makes (`<random>.<ext>`), never user input.
 */
export interface MediaStorage {
  /** Stores a staged local file under `key`; the staged file is consumed (moved or deleted). */
  put(key: string, stagedFile: string, contentType: string): Promise<void>;
  /** The stored object's size, or null when there is none. */
  stat(key: string): Promise<{ size: number } | null>;
  /** The bytes, or the inclusive byte range `start..end` of them. */
  read(key: string, range?: { start: number; end: number }): Readable;
  /** Removes the objects; a key that is already gone is not an error. */
  remove(keys: string[]): Promise<void>;
}

const KEY = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9]+)+$/;

/** Keys are made by the service; this check only makes sure no other path can ever be reached. */
export function assertStorageKey(key: string): void {
  if (!KEY.test(key)) throw new Error(`Invalid storage key "${key}"`);
}

/** Files on the local disk, flat under one directory (`DATA_DIR/uploads`). */
export class LocalDiskStorage implements MediaStorage {
  constructor(readonly root: string) {}

  private file(key: string): string {
    assertStorageKey(key);
    return path.join(this.root, key);
  }

  async put(key: string, stagedFile: string): Promise<void> {
    const target = this.file(key);
    await fs.promises.mkdir(this.root, { recursive: true });
    try {
      await fs.promises.rename(stagedFile, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      // The staging directory is on another device: copy, then drop the staged file.
      await fs.promises.copyFile(stagedFile, target);
      await fs.promises.rm(stagedFile, { force: true });
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

  read(key: string, range?: { start: number; end: number }): Readable {
    return fs.createReadStream(this.file(key), range ? { start: range.start, end: range.end } : {});
  }

  async remove(keys: string[]): Promise<void> {
    await Promise.all(keys.map((key) => fs.promises.rm(this.file(key), { force: true })));
  }
}
