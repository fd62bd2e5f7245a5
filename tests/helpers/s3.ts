import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { S3Config } from '../../server/src/config.js';

/** A real S3-protocol server (s3rver) on a free port, with one empty bucket, its objects in a temp folder. */
export interface TestBucket {
  config: S3Config;
  /** The same settings as environment variables, for app processes. */
  env: Record<string, string>;
  /** The keys in the bucket, sorted. */
  keys(): Promise<string[]>;
  stop(): Promise<void>;
}

export async function startTestBucket(name = `cards-${crypto.randomBytes(4).toString('hex')}`): Promise<TestBucket> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'artsong-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name, configs: [] }] });
  const { port } = await server.run();
  const config: S3Config = {
    bucket: name,
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    forcePathStyle: true,
  };
  const client = new S3Client({ region: config.region, endpoint: config.endpoint, credentials: config.credentials, forcePathStyle: true });
  return {
    config,
    env: {
      S3_BUCKET: name,
      S3_ENDPOINT: config.endpoint!,
      S3_REGION: config.region,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: '1',
    },
    async keys() {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: name, ContinuationToken: token }));
        keys.push(...(page.Contents ?? []).map((object) => object.Key!));
        token = page.NextContinuationToken;
      } while (token);
      return keys.sort();
    },
    async stop() {
      client.destroy();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
