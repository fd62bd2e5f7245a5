import express from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { MediaStorage } from '../../server/src/modules/media/media-storage.js';

/** A readiness check that takes longer than this counts as failed: a proxy must not wait on a hung dependency. */
const CHECK_TIMEOUT_MS = 3000;

type CheckOutcome = 'ok' | 'unreachable';

/**
 * `/healthz` (the process is alive) and `/readyz` (it can serve: the database answers, and the media
 * storage, a bucket included, is reachable). Served by every role, the worker included.
 */
export function healthRouter(orm: MikroORM, storage: MediaStorage): express.Router {
  const router = express.Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (req, res) => {
    const [database, media] = await Promise.all([
      check(() => orm.em.getConnection().execute('select 1'), (err) => req.log?.warn({ err }, 'readiness: the database is unreachable')),
      check(() => storage.check(), (err) => req.log?.warn({ err, storage: storage.kind }, 'readiness: the media storage is unreachable')),
    ]);
    const checks = { database, media };
    if (database === 'ok' && media === 'ok') {
      res.json({ status: 'ready', checks });
      return;
    }
    const message = database !== 'ok' ? 'The database is not reachable.' : 'The media storage is not reachable.';
    res.status(503).setHeader('Retry-After', '5').json({ message, code: 'SERVICE_UNAVAILABLE', checks });
  });
  return router;
}

async function check(probe: () => Promise<unknown>, onFailure: (error: unknown) => void): Promise<CheckOutcome> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      probe(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      }),
    ]);
    return 'ok';
  } catch (error) {
    onFailure(error);
    return 'unreachable';
  } finally {
    clearTimeout(timer);
  }
}

/** The whole HTTP surface of a worker process (APP_ROLE=worker): health and readiness, nothing else. */
export function createWorkerGateway(orm: MikroORM, storage: MediaStorage): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(healthRouter(orm, storage));
  app.use((_req, res) => {
    res.status(404).json({ message: 'This is a worker process: it serves /healthz and /readyz only.', code: 'NOT_FOUND' });
  });
  return app;
}
