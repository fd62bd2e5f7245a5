import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Logger } from 'pino';
import * as tar from 'tar';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import type { AppConfig } from '../config.js';
import { openDatabase, type DatabaseHandle } from '../db/database.js';
import { initOrm, migrate } from '../db/orm.js';
import { migrationsList } from '../../../migrations/index.js';
import { dumpDatabase, hasShopData, loadDatabase, type DatabaseDump } from './database-dump.js';

export const BACKUP_FORMAT = 'art-and-song-cards-backup';
export const BACKUP_VERSION = 1;

/** What an archive holds, in its `manifest.json`. */
export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  database: DatabaseDump;
  /** `disk`: the files are under `media/` in the archive; `s3`: they stay in the bucket, listed in `media/s3-keys.tsv`. */
  media: { storage: 'disk'; files: number; bytes: number } | { storage: 's3'; bucket: string; keys: number; bytes: number };
}

/**
 * `npm run backup -- FILE`: one archive (a gzipped tar) of the shop: its database (see
 * database-dump.ts) and its media files, or, with S3, a list of the bucket's keys (the bytes stay in
 * the bucket: keep it versioned). Works on a running shop: the database is read in one snapshot, and
 * the embedded database is reached where it runs.
 */
export async function backup(config: AppConfig, file: string, log: Logger): Promise<BackupManifest> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'artsong-backup-'));
  const db = await openForTools(config);
  try {
    const database = await dumpDatabase(db.url, path.join(work, 'database'));
    let media: BackupManifest['media'];
    if (config.s3) {
      const listed = await listBucket(config);
      fs.mkdirSync(path.join(work, 'media'));
      fs.writeFileSync(path.join(work, 'media', 's3-keys.tsv'), ['key\tsize\tetag\tlast_modified', ...listed.map((o) => `${o.key}\t${o.size}\t${o.etag}\t${o.lastModified}`)].join('\n') + '\n');
      media = { storage: 's3', bucket: config.s3.bucket, keys: listed.length, bytes: listed.reduce((sum, o) => sum + o.size, 0) };
    } else {
      const uploads = path.join(config.dataDir, 'uploads');
      fs.mkdirSync(uploads, { recursive: true });
      // The archive takes the files where they are (followed through a link), without a copy.
      fs.symlinkSync(uploads, path.join(work, 'media'));
      const files = walk(uploads);
      media = { storage: 'disk', files: files.length, bytes: files.reduce((sum, f) => sum + fs.statSync(f).size, 0) };
    }
    const manifest: BackupManifest = { format: BACKUP_FORMAT, version: BACKUP_VERSION, createdAt: new Date().toISOString(), database, media };
    fs.writeFileSync(path.join(work, 'manifest.json'), JSON.stringify(manifest, null, 2));
    const target = path.resolve(file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    // Written beside the target, then renamed: a half-written archive never has the archive's name.
    // It holds password hashes, the links' secrets and every shopper's data: readable by its owner
    // alone from the moment it exists (a new file, made 0600; a leftover of a stopped run is replaced).
    const partial = `${target}.partial`;
    fs.rmSync(partial, { force: true });
    await pipeline(tar.create({ gzip: true, cwd: work, follow: true, portable: true }, ['manifest.json', 'database', 'media']), fs.createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
    fs.renameSync(partial, target);
    log.info({ file: target, tables: database.tables.length, rows: database.tables.reduce((n, t) => n + t.rows, 0), media }, 'backup written');
    return manifest;
  } finally {
    await db.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * `npm run restore -- FILE`: fills an empty shop from an archive: the database (the migrations make
 * the schema, the archive's rows go in, newer migrations run after) and, for disk storage, the media
 * files into `DATA_DIR/uploads`. Refuses a database that holds a shop already, or uploads already
 * there, and an archive made by a newer version of the shop.
 */
export async function restore(config: AppConfig, file: string, log: Logger): Promise<BackupManifest> {
  if (!fs.existsSync(file)) throw new Error(`No backup at ${file}`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'artsong-restore-'));
  try {
    await unpack(file, work);
    const manifest = readManifest(work);
    const known = new Set(migrationsList.map((m) => m.name));
    const unknown = manifest.database.migrations.filter((name) => !known.has(name));
    if (unknown.length) throw new Error(`This backup was made by a newer version of the shop (migrations ${unknown.join(', ')}); restore it with that version or later.`);
    const uploads = path.join(config.dataDir, 'uploads');
    if (manifest.media.storage === 'disk' && config.s3) throw new Error('This backup holds its media files; restore it without S3_BUCKET (then copy DATA_DIR/uploads into the bucket), or into a shop on disk.');
    if (!config.s3 && fs.existsSync(uploads) && fs.readdirSync(uploads).length) throw new Error(`${uploads} holds files already: restore into an empty DATA_DIR.`);

    const db = await openDatabase(config);
    try {
      if (await hasShopData(db.url)) throw new Error('The database holds a shop with data already: restore into an empty database (or an empty DATA_DIR).');
      const orm = await initOrm(db.url);
      try {
        const last = manifest.database.migrations.at(-1);
        if (last) await orm.migrator.up({ to: last });
        await loadDatabase(db.url, path.join(work, 'database'), manifest.database);
        const newer = await migrate(orm);
        if (newer.length) log.info({ migrations: newer }, 'migrations newer than the backup applied');
      } finally {
        await orm.close();
      }
    } finally {
      await db.stop();
    }

    if (manifest.media.storage === 'disk') {
      fs.mkdirSync(uploads, { recursive: true });
      fs.cpSync(path.join(work, 'media'), uploads, { recursive: true, errorOnExist: true, force: false });
    } else if (config.s3) {
      const listed = new Set((await listBucket(config)).map((o) => o.key));
      const wanted = fs.readFileSync(path.join(work, 'media', 's3-keys.tsv'), 'utf8').split('\n').slice(1).filter(Boolean).map((line) => line.split('\t')[0]!);
      const missing = wanted.filter((key) => !listed.has(key));
      if (missing.length) log.warn({ missing: missing.length, first: missing.slice(0, 10) }, 'files of the backup are not in the bucket: restore them from the bucket\'s versions');
    }
    log.info({ file, tables: manifest.database.tables.length, media: manifest.media }, 'backup restored');
    return manifest;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function readManifest(dir: string): BackupManifest {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  } catch {
    throw new Error('This file is not a backup of the shop (it has no manifest).');
  }
  if (manifest.format !== BACKUP_FORMAT) throw new Error('This file is not a backup of the shop.');
  if (manifest.version > BACKUP_VERSION) throw new Error(`This backup has format version ${manifest.version}; this shop reads version ${BACKUP_VERSION}.`);
  for (const table of manifest.database?.tables ?? []) insideArchive(path.join(dir, 'database'), table.file, `the file of table ${table.name}`);
  return manifest;
}

/** Entries a backup is made of: files and folders (the media are followed when the archive is written). */
const REGULAR = new Set(['File', 'OldFile', 'ContiguousFile', 'Directory']);

/**
 * Unpacks an archive into `dir`, refusing it whole (before anything is restored) when it holds
 * anything but files and folders under itself: a symbolic or hard link would be copied into the
 * uploads as it is and serve what it points at, a path with `..` or an absolute one lands elsewhere.
 */
async function unpack(file: string, dir: string): Promise<void> {
  const refused: string[] = [];
  await tar.extract({
    file,
    cwd: dir,
    strict: true,
    filter(entryPath, entry) {
      const type = 'type' in entry ? entry.type : 'File';
      const parts = entryPath.split(/[\\/]/);
      if (path.isAbsolute(entryPath) || parts.includes('..')) refused.push(`${entryPath} leaves the archive`);
      else if (type === 'SymbolicLink') refused.push(`${entryPath} is a symbolic link`);
      else if (!REGULAR.has(type)) refused.push(`${entryPath} is not a regular file (${type === 'Link' ? 'a hard link' : type})`);
      else return true;
      return false;
    },
  });
  if (refused.length) {
    const listed = refused.slice(0, 10).join('; ') + (refused.length > 10 ? `; and ${refused.length - 10} more` : '');
    throw new Error(`This backup holds what a backup of the shop never holds, so nothing was restored: ${listed}.`);
  }
}

/** A path the manifest names, checked to stay inside the unpacked archive's `dir`. */
function insideArchive(dir: string, name: unknown, what: string): string {
  const resolved = typeof name === 'string' && name !== '' && !path.isAbsolute(name) && !name.split(/[\\/]/).includes('..') ? path.resolve(dir, name) : null;
  if (!resolved || !resolved.startsWith(dir + path.sep)) throw new Error(`The backup's manifest puts ${what} at ${JSON.stringify(name)}, outside the archive: nothing was restored.`);
  return resolved;
}

/**
 * The shop's database for a tool: DATABASE_URL; else the embedded cluster of DATA_DIR, reached where
 * it runs when the shop is up (its port from postmaster.pid), or started for the while.
 */
async function openForTools(config: AppConfig): Promise<DatabaseHandle> {
  if (!config.databaseUrl) {
    const pgDir = path.join(config.dataDir, 'pg');
    const pidFile = path.join(pgDir, 'postmaster.pid');
    if (!fs.existsSync(path.join(pgDir, 'PG_VERSION'))) throw new Error(`There is no shop in ${config.dataDir} (no embedded database).`);
    if (fs.existsSync(pidFile)) {
      const lines = fs.readFileSync(pidFile, 'utf8').split('\n');
      const pid = Number(lines[0]);
      const port = Number(lines[3]);
      if (isAlive(pid) && port > 0) {
        const password = fs.readFileSync(path.join(config.dataDir, 'pg-password'), 'utf8').trim();
        return { url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/artsong`, stop: async () => {} };
      }
    }
  }
  return openDatabase(config);
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function listBucket(config: AppConfig): Promise<{ key: string; size: number; etag: string; lastModified: string }[]> {
  const { S3Storage } = await import('../modules/media/s3-storage.js');
  const storage = new S3Storage(config.s3!);
  const objects: { key: string; size: number; etag: string; lastModified: string }[] = [];
  try {
    let token: string | undefined;
    do {
      const page = await storage.client.send(new ListObjectsV2Command({ Bucket: storage.bucket, ContinuationToken: token }));
      for (const o of page.Contents ?? []) objects.push({ key: o.Key!, size: o.Size ?? 0, etag: (o.ETag ?? '').replace(/"/g, ''), lastModified: o.LastModified?.toISOString() ?? '' });
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  } finally {
    storage.client.destroy();
  }
  return objects;
}

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)]));
}
