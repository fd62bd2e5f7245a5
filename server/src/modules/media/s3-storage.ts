import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { DeleteObjectsCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Config } from '../../config.js';
import { assertStorageKey, type ByteRange, type MediaStorage, type StorageSource } from './media-storage.js';

/** DeleteObjects takes at most this many keys per request. */
const DELETE_BATCH = 1000;

/**
 * Media in an S3-compatible bucket (AWS S3, MinIO, ...), one object per key at the bucket's top
 * level. Uploads are streamed in parts (lib-storage), reads are streamed with optional ranges, so no
 * file is ever held whole in memory and nothing is written to the local disk.
 */
export class S3Storage implements MediaStorage {
  readonly kind = 's3';
  readonly bucket: string;
  readonly client: S3Client;

  constructor(config: S3Config, client?: S3Client) {
    this.bucket = config.bucket;
    this.client =
      client ??
      new S3Client({
        region: config.region,
        endpoint: config.endpoint,
        forcePathStyle: config.forcePathStyle,
        credentials: config.credentials,
        // Checksums only where S3 demands them: a streamed body then goes out as a plain upload
        // (not "aws-chunked"), which every S3-compatible server stores as sent.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
  }

  async put(key: string, source: StorageSource, contentType: string): Promise<void> {
    assertStorageKey(key);
    const body = 'stagedFile' in source ? fs.createReadStream(source.stagedFile) : 'stream' in source ? source.stream : source.bytes;
    try {
      await new Upload({
        client: this.client,
        params: { Bucket: this.bucket, Key: key, Body: body, ContentType: contentType },
        queueSize: 4,
        partSize: 8 * 1024 * 1024,
        leavePartsOnError: false,
      }).done();
    } finally {
      if ('stagedFile' in source) {
        (body as fs.ReadStream).destroy();
        await fs.promises.rm(source.stagedFile, { force: true });
      }
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    assertStorageKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    assertStorageKey(key);
    const object = await this.client.send(
      new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
    );
    if (!object.Body) throw new Error(`The bucket answered no body for "${key}"`);
    // In Node the SDK's body is an http.IncomingMessage (a Readable) with helper methods mixed in.
    return object.Body as Readable;
  }

  async remove(keys: string[]): Promise<void> {
    keys.forEach(assertStorageKey);
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      const batch = keys.slice(i, i + DELETE_BATCH);
      const result = await this.client.send(
        new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
      );
      const failed = (result.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length) throw new Error(`The bucket kept ${failed.length} object(s): ${failed.map((e) => `${e.Key} (${e.Code})`).join(', ')}`);
    }
  }

  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  destroy(): void {
    this.client.destroy();
  }
}

function isNotFound(error: unknown): boolean {
  if (error instanceof S3ServiceException) return error.$metadata.httpStatusCode === 404 || error.name === 'NotFound' || error.name === 'NoSuchKey';
  return false;
}
