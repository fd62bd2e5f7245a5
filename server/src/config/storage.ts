/** Where media are kept: an S3-compatible bucket when S3_BUCKET names one. */

export interface S3Config {
  bucket: string;
  /** A MinIO (or other S3-compatible) URL; AWS itself when unset. */
  endpoint?: string;
  region: string;
  /** Static credentials; without them the AWS SDK's default credential chain applies. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  forcePathStyle: boolean;
}

/** S3_BUCKET selects the bucket storage; the other S3_ variables only refine it. */
export function parseS3(env: NodeJS.ProcessEnv): S3Config | undefined {
  const bucket = env.S3_BUCKET?.trim();
  if (!bucket) return undefined;
  const accessKeyId = env.S3_ACCESS_KEY_ID || undefined;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || undefined;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) throw new Error('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both or neither');
  return {
    bucket,
    endpoint: env.S3_ENDPOINT || undefined,
    region: env.S3_REGION || 'us-east-1',
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    forcePathStyle: ['1', 'true', 'yes', 'on'].includes((env.S3_FORCE_PATH_STYLE ?? '').trim().toLowerCase()),
  };
}
