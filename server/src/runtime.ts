import type { Logger } from 'pino';
import type { MikroORM } from '@mikro-orm/postgresql';
import { demoSeedEnabled, runsJobs, type AppConfig } from './config.js';
import { ChangeFeed } from './core/change-feed.js';
import { CacheKeys } from './core/read-cache.js';
import { withBootLock } from './db/boot-lock.js';
import { openDatabase } from './db/database.js';
import { initOrm, migrate } from './db/orm.js';
import { resolveJwtSecret } from './modules/auth/token.service.js';
import { ECARD_PAGES_SIGNAL } from './modules/ecard/ecard-pages.js';
import { PRODUCT_PAGES_QUEUED_SIGNAL, PRODUCT_PAGES_STALE_SIGNAL } from './modules/catalogue/index.js';
import { MAIL_QUEUED_SIGNAL } from './modules/mail/mail-queue.js';
import { SaleClock, SALES_CHANGED_SIGNAL } from './modules/promotions/index.js';
import { WEBHOOK_QUEUED_SIGNAL } from './modules/webhooks/webhook-outbox.js';
import { createMediaStorage, createPaymentProviders, createServices, type ServiceDeps, type Services } from './services.js';

/** The shop's back end, running: its database, ORM, services and change feed; HTTP comes on top. */
export interface Runtime {
  orm: MikroORM;
  services: Services;
  feed: ChangeFeed;
  /** Moves the shop's prices when a sale starts or ends (tests that move the clock wake it). */
  saleClock: SaleClock;
  /** Registers a step for `stop` (run in reverse order of registration). */
  onStop(step: () => Promise<void>): void;
  /** Stops what was started, last first. */
  stop(): Promise<void>;
}

/** How often a running process sweeps stale staging files (those older than STALE_STAGING_MS). */
const STAGING_SWEEP_MS = 3600_000;

/** How often a process that runs jobs drops audit entries older than a year. */
const AUDIT_SWEEP_MS = 24 * 3600_000;

/**
 * The composition root. Opens the database and, under the boot lock (processes starting at once take
 * turns), migrates it, settles the signing secret, makes sure there is an admin and adds the demo
 * catalogue once. Then it starts what every process needs (the change feed, the abuse limits' store,
 * the staging sweep) and, where `APP_ROLE` runs jobs, the mail queue and the sweep of abandoned checkouts.
 */
export async function startRuntime(config: AppConfig, log: Logger, deps: Omit<ServiceDeps, 'log'> = {}): Promise<Runtime> {
  const steps: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const step of steps.reverse()) await step().catch((error) => log.error({ err: error }, 'shutdown step failed'));
    steps.length = 0;
  };
  try {
    const db = await openDatabase(config, (line) => log.debug({ pg: line }));
    steps.push(() => db.stop());
    const orm = await initOrm(db.url);
    steps.push(() => closeOrm(orm, log));

    const services = await withBootLock(
      db.url,
      async () => {
        const applied = await migrate(orm);
        if (applied.length) log.info({ migrations: applied }, 'migrations applied');
        const storage = deps.storage ?? (await createMediaStorage(config));
        const paymentProviders = deps.paymentProviders ?? (await createPaymentProviders(config));
        // The test provider keeps its subscriptions' idempotency keys in the database, as an outside service keeps them whatever becomes of this process.
        for (const provider of paymentProviders) if (provider.useDatabase) steps.push(provider.useDatabase(db.url));
        const services = createServices(config, await resolveJwtSecret(config, orm.em.fork()), { ...deps, storage, paymentProviders, log });
        await ensureAdmin(services, orm, config, log);
        if (demoSeedEnabled(config)) {
          // The demo's picture and song generators are loaded only when a shop is seeded.
          const { DemoSeedService } = await import('./demo/demo-seed.service.js');
          await new DemoSeedService(services).seedOnStart(orm.em.fork(), log);
        }
        return services;
      },
      () => log.info('another process is starting on this database; waiting for it'),
    );
    steps.push(async () => services.media.storage.destroy?.());
    // The abuse limits count in the database, through the ORM's own connection pool.
    services.limits.connect(await orm.em.getConnection().getNativeClient());
    // E-card pages are kept drawn in the database, read and written through the same pool.
    services.ecardPages.connect(await orm.em.getConnection().getNativeClient());
    // The read cache works only while it hears every process's writes.
    const feed = new ChangeFeed(db.url, services.cache, (sql, params) => orm.em.getConnection().execute(sql, params), log);
    await feed.start();
    steps.push(() => feed.stop());
    // What this process wrote before it listened (the demo catalogue, on a first start) reaches the others now.
    await services.cache.changed([CacheKeys.all]);
    // From now on a change also makes old the stored product pages it touches, before any process drops
    // it from memory, and wakes the processes that draw them. (The start's own change above is not one:
    // what a process writes before it listens is a first start's seed, which has no stored pages yet.)
    services.productPages.connect(orm.em.fork());
    services.cache.keepAlso(services.productPages.changed);
    services.productPages.onChange((every) => void feed.signal(every ? PRODUCT_PAGES_STALE_SIGNAL : PRODUCT_PAGES_QUEUED_SIGNAL));

    await sweepStaging(services, log);
    const sweeper = setInterval(() => void sweepStaging(services, log), STAGING_SWEEP_MS);
    sweeper.unref();
    steps.push(async () => {
      clearInterval(sweeper);
      await services.media.closeStaging();
    });

    // Prices follow the sales' starts and ends at the second in every process (see SaleClock).
    const saleClock = new SaleClock({ orm, cache: services.cache, clock: services.clock, log });
    feed.onSignal(SALES_CHANGED_SIGNAL, () => void saleClock.wake());
    await saleClock.start();
    steps.push(async () => saleClock.stop());

    // A job queued due now (by any process) wakes the processes that send mail when its transaction commits.
    if (runsJobs(config.appRole)) {
      feed.onSignal(MAIL_QUEUED_SIGNAL, () => services.deliveries.kick());
      services.deliveries.start(orm, config.deliveryPollSeconds);
      steps.push(() => services.deliveries.stop());
      // Webhook events committed by any process wake the processes that deliver them, as mail does.
      feed.onSignal(WEBHOOK_QUEUED_SIGNAL, () => services.webhookDeliveries.kick());
      services.webhookDeliveries.start(orm, config.deliveryPollSeconds);
      steps.push(() => services.webhookDeliveries.stop());
      // A delivered card's page is drawn again in the background when its rows change (the database signals it).
      feed.onSignal(ECARD_PAGES_SIGNAL, () => services.ecardPages.kick());
      services.ecardPages.start();
      steps.push(() => services.ecardPages.stop());
      // The audit log keeps a year: swept at start and then daily (several workers sweeping is harmless).
      const sweepAudit = () => void services.audit.sweep(orm.em.fork()).then(
        (removed) => removed && log.info({ removed }, 'audit entries older than a year removed'),
        (error: unknown) => log.warn({ err: error }, 'could not sweep the audit log'),
      );
      // Webhook events older than 30 days go with their deliveries, by the same daily sweep.
      const sweepWebhooks = () => void services.webhookDeliveries.sweep(orm.em.fork()).catch((error: unknown) => log.warn({ err: error }, 'could not sweep old webhook events'));
      const sweepDaily = () => {
        sweepAudit();
        sweepWebhooks();
      };
      sweepDaily();
      const auditSweeper = setInterval(sweepDaily, AUDIT_SWEEP_MS);
      auditSweeper.unref();
      steps.push(async () => clearInterval(auditSweeper));
      // Account links (resets, confirmations) that expired more than a day ago, and sessions that ran out: swept at start and then daily.
      const sweepLinks = () => {
        void services.accountLinks.sweep(orm.em.fork(), new Date()).catch((error: unknown) => log.warn({ err: error }, 'could not sweep expired account links'));
        // Remembered sessions ("Keep me signed in") that ran out, by the same daily sweep.
        void services.auth.remembered.sweep(orm.em.fork(), new Date()).catch((error: unknown) => log.warn({ err: error }, 'could not sweep expired sessions'));
      };
      sweepLinks();
      const linkSweeper = setInterval(sweepLinks, AUDIT_SWEEP_MS);
      linkSweeper.unref();
      steps.push(async () => clearInterval(linkSweeper));
      services.abandonedCheckouts.start(orm);
      steps.push(() => services.abandonedCheckouts.stop());
      services.membershipRenewals.start(orm);
      steps.push(() => services.membershipRenewals.stop());
      services.occasionReminders.start(orm);
      steps.push(() => services.occasionReminders.stopSweeping());
    }
    return { orm, services, feed, saleClock, onStop: (step) => steps.push(step), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The longest a stop waits for the database pool to close. */
const ORM_CLOSE_MS = 10_000;

/**
 * Closes the ORM's pool. A connection lost in the middle of being taken while the database was away
 * can stay counted by the pool for ever, and the pool's close waits for every connection it counts:
 * after a while the stop goes on without it (the socket is already gone).
 */
async function closeOrm(orm: MikroORM, log: Logger): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ORM_CLOSE_MS);
    timer.unref();
  });
  const outcome = await Promise.race([orm.close(), late]);
  clearTimeout(timer);
  if (outcome === 'late') log.warn('the database pool did not close in time; stopping without it');
}

async function ensureAdmin(services: Services, orm: MikroORM, config: AppConfig, log: Logger): Promise<void> {
  const admin = await services.auth.ensureAdmin(orm.em.fork(), config.admin);
  if (!admin.created) return;
  log.info({ username: config.admin.username }, 'admin user created');
  if (admin.generatedPassword) {
    // Printed once, on the console only: it is never stored anywhere in clear text.
    process.stdout.write(
      `\n  Admin account created: username "${config.admin.username}", password "${admin.generatedPassword}"\n  Keep it safe; it will not be shown again.\n\n`,
    );
  }
}

async function sweepStaging(services: Services, log: Logger): Promise<void> {
  try {
    const removed = await services.media.sweepStaging();
    if (removed) log.info({ files: removed }, 'stale half-received uploads removed');
  } catch (error) {
    log.warn({ err: error }, 'could not sweep the upload staging folder');
  }
}
