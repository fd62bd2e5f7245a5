/**
 * Christmas morning (`npm run bench -- delivery`, issue 23, contract section 10): the built shop
 * (`npm run serve`, production settings) on one embedded PostgreSQL, a real SMTP server in this
 * process (`smtp-server`, tests/helpers/smtp-sink.ts) noting every message's Message-ID, recipient,
 * size and arrival.
 *
 *   (a) 400 orders × 25 cards "send now", placed over GraphQL by 16 shoppers at once, one shop
 *       process (APP_ROLE=all) taking the orders and sending: checkout p50/p95 and orders/s, e-mails/s,
 *       seconds from the last order to the last e-mail, on a shop that has
 *       first placed and delivered BENCH_WARM_ORDERS (default 40) orders, as a shop open for days has;
 *       then the same with 50 cards an order
 *       (checkout only);
 *   (b) 100,000 cards falling due at the same moment: written through the shop's own services (an
 *       in-process shop, APP_ROLE=web, placing 4,000 orders for a later day), then, for each run, every
 *       card's job made due at one moment T0 (as the clock reaching the day does), with 1, 2 and 3
 *       worker processes (APP_ROLE=worker) already running;
 *   (c) (b) with MAIL_MAX_PER_SECOND=200 and two workers: the busiest second at the SMTP server;
 *   (d) (b) with two workers, one killed with SIGKILL when half the cards have arrived.
 * The floor: a pooled nodemailer transport (5 connections, as SMTP_POOL_SIZE's default) in a process
 * of its own sending the same number (at most BENCH_FLOOR_MAX) of pre-rendered card e-mails of the
 * same size to the same server; every rate is also given as a ratio to it. Duplicates are counted by
 * Message-ID (the same e-mail arriving twice) and by recipient (two different e-mails for one card);
 * missing ones by the jobs' Message-IDs. Peak RSS of every process, sampled every 200 ms.
 *
 * BENCH_ORDERS_A (default 400), BENCH_CARDS (default 100000), BENCH_WORKERS (default 1,2,3), BENCH_SCENARIOS (default a,b,c,d),
 * BENCH_NODE_FLAGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`), BENCH_FLOOR_MAX (default 20000), BENCH_WARM_ORDERS (default 40; 0: a cold shop).
 */
import { execFileSync, spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import pino from "pino";
import { startApp } from "../../gateway/src/boot.js";
import { loadConfig } from "../../server/src/config.js";
import { startEmbeddedPostgres } from "../../server/src/db/embedded-postgres.js";
import { cardEmail } from "../../server/src/modules/orders/order-emails.js";
import type { OrderItem } from "../../server/src/modules/orders/order-item.entity.js";
import { percentile } from "./bench-kit.js";
import { cpuMs } from "./shop-kit.js";
import { spawnShop, type ShopProcess as Proc } from "./shop-process.js";
import {
  startSmtpSink,
  type Arrival,
  type SmtpSink,
} from "../helpers/smtp-sink.js";

/** BENCH_ROOT: another checkout's build to measure (e.g. the shop before this work), with this bench. */
const root = process.env.BENCH_ROOT
  ? path.resolve(process.env.BENCH_ROOT)
  : path.resolve(import.meta.dirname, "../..");
const ORDERS_A = Number(process.env.BENCH_ORDERS_A ?? 400);
const CARDS_A = 25;
const SHOPPERS = 16;
const CARDS_B = Number(process.env.BENCH_CARDS ?? 100_000);
const WORKERS = (process.env.BENCH_WORKERS ?? "1,2,3").split(",").map(Number);
const SCENARIOS = new Set(
  (process.env.BENCH_SCENARIOS ?? "a,b,c,d").split(","),
);
const FLOOR_MAX = Number(process.env.BENCH_FLOOR_MAX ?? 20_000);
/** Orders placed and delivered on the shop of (a) before it is measured (BENCH_WARM_ORDERS, 0: a cold shop). */
const WARM_ORDERS = Number(process.env.BENCH_WARM_ORDERS ?? 40);
const CAP = 200;
const GOALS = { ratio: 0.5, aSeconds: 60, bSeconds: 600, p95: 250, rss: 300 };
/** How long a run may take before the bench gives up on it. */
const RUN_LIMIT_MS = Number(process.env.BENCH_RUN_LIMIT_S ?? 1200) * 1000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => +(ms / 1000).toFixed(1);

const PLACE = `mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id } }`;
const PAY = {
  cardNumber: "4242 4242 4242 4242",
  expiry: "12/30",
  cvc: "123",
  cardholderName: "Bench Shopper",
};

function orderInput(
  productId: number,
  n: number,
  cards: number,
  deliveryDate?: string,
) {
  return {
    idempotencyKey: crypto.randomUUID(),
    purchaserEmail: `buyer${n}@bench.example`,
    payment: PAY,
    lines: Array.from({ length: cards }, (_, k) => ({
      productId,
      quantity: 1,
      personalisation: {
        recipientName: `Friend ${n}-${k}`,
        recipientEmail: `friend${n}-${k}@bench.example`,
        senderName: `Shopper ${n}`,
        message: `Merry Christmas, friend ${k}!\nWith love from shopper ${n}.`,
        ...(deliveryDate ? { deliveryDate, timeZone: "UTC" } : {}),
      },
    })),
  };
}

/**
 * The shoppers' requests: node's HTTP client over kept-alive connections, one per shopper. The load
 * generator shares the machine with the shop; fetch (undici) took about twice the CPU per request.
 */
const shoppers = new http.Agent({ keepAlive: true, maxSockets: SHOPPERS });
function postJson(url: string, body: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: "POST",
        agent: shoppers,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")));
          } catch (error) {
            reject(new Error(`HTTP ${response.statusCode}: ${Buffer.concat(chunks).toString("utf8").slice(0, 400)}`, { cause: error }));
          }
        });
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** Places `orders` orders of `cards` cards with SHOPPERS at once; answers each order's latency and id. */
async function placeOrders(
  url: string,
  productId: number,
  first: number,
  orders: number,
  cards: number,
  deliveryDate?: string,
) {
  const latencies: number[] = [];
  const ids: string[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: SHOPPERS }, async () => {
      while (next < orders) {
        const n = first + next++;
        const t = performance.now();
        const body = (await postJson(
          `${url}/graphql`,
          JSON.stringify({
            query: PLACE,
            variables: { input: orderInput(productId, n, cards, deliveryDate) },
          }),
        )) as {
          data?: { placeOrder: { id: string } };
          errors?: unknown;
        };
        if (!body.data)
          throw new Error(
            `placeOrder failed: ${JSON.stringify(body.errors).slice(0, 400)}`,
          );
        latencies.push(performance.now() - t);
        ids.push(body.data.placeOrder.id);
      }
    }),
  );
  const elapsed = performance.now() - started;
  latencies.sort((a, b) => a - b);
  return {
    ids,
    elapsed,
    ended: Date.now(),
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    perSecond: orders / (elapsed / 1000),
  };
}

/** One card product with every media slot filled (rows only: sending never reads the bytes). */
async function seedCatalogue(db: pg.Client): Promise<number> {
  const [{ id: folder }] = (
    await db.query(
      `insert into media_folder (name) values ('Bench') returning id`,
    )
  ).rows;
  const images = (
    await db.query(
      `insert into media_file (file_name, file_path, friendly_name, folder_id, mime_type, size, width, height) select 'i' || n || '.png', 'uploads/bench-i' || n || '.png', 'Image ' || n, $1, 'image/png', 120000, 1200, 900 from generate_series(1, 4) n returning id`,
      [folder],
    )
  ).rows.map((r) => r.id);
  const songs = (
    await db.query(
      `insert into media_file (file_name, file_path, friendly_name, folder_id, mime_type, size) select 's' || n || '.mp3', 'uploads/bench-s' || n || '.mp3', 'Song ' || n, $1, 'audio/mpeg', 3000000 from generate_series(1, 2) n returning id`,
      [folder],
    )
  ).rows.map((r) => r.id);
  const [{ id: category }] = (
    await db.query(
      `insert into category (name) values ('Christmas') returning id`,
    )
  ).rows;
  const [{ id: product }] = (
    await db.query(
      `insert into product (name, description, sku, price, category_id, product_type_id, main_image_id, tags, search_text) values ('Snowy Pines', 'A winter card with a carol.', 'XMAS-1', 4.5, $1, 1, $2, array['christmas'], 'snowy pines') returning id`,
      [category, images[0]],
    )
  ).rows;
  await db.query(
    `insert into e_greeting_card (product_id, message_location, font_name, song_1_id, song_2_id, cover_image_id, greeting_image_id, back_image_id, extra_image_1_id) values ($1, 'top-left', 'Dancing Script', $2, $3, $4, $5, $6, $7)`,
    [product, songs[0], songs[1], images[0], images[1], images[2], images[3]],
  );
  return product;
}

interface Delivery {
  emails: number;
  seconds: number;
  rate: number;
  /** The same Message-ID arriving more than once (a resend recognisable as the same e-mail). */
  repeats: number;
  /** A recipient receiving two different e-mails for one card. */
  doubled: number;
  missing: number;
  busiestSecond: number;
  bytes: number;
  /** The sender's CPU time per e-mail (ms), where measured. */
  cpuMsPerEmail?: number;
}

/** Waits until every expected Message-ID arrived (or the run's limit passed), then counts. */
async function awaitDelivery(
  sink: SmtpSink,
  expected: Set<string>,
  from: number,
  onProgress?: (arrived: number) => void,
): Promise<Delivery> {
  const seen = new Set<string>();
  const limit = Date.now() + RUN_LIMIT_MS;
  let scanned = 0;
  while (Date.now() < limit) {
    for (; scanned < sink.arrivals.length; scanned++)
      if (expected.has(sink.arrivals[scanned]!.messageId))
        seen.add(sink.arrivals[scanned]!.messageId);
    onProgress?.(seen.size);
    if (seen.size >= expected.size) break;
    await sleep(100);
  }
  // A moment for late repeats to show.
  await sleep(1500);
  return count(
    sink.arrivals.filter((a) => expected.has(a.messageId)),
    expected,
    from,
  );
}

function count(
  arrivals: Arrival[],
  expected: Set<string>,
  from: number,
): Delivery {
  const ids = new Map<string, number>();
  const perSecond = new Map<number, number>();
  const cardsTo = new Map<string, Set<string>>();
  let bytes = 0;
  for (const a of arrivals) {
    ids.set(a.messageId, (ids.get(a.messageId) ?? 0) + 1);
    perSecond.set(
      Math.floor(a.at / 1000),
      (perSecond.get(Math.floor(a.at / 1000)) ?? 0) + 1,
    );
    if (/^card-\d+@/.test(a.messageId))
      cardsTo.set(a.to, (cardsTo.get(a.to) ?? new Set()).add(a.messageId));
    bytes += a.bytes;
  }
  const last = Math.max(...arrivals.map((a) => a.at));
  return {
    emails: ids.size,
    seconds: (last - from) / 1000,
    rate: ids.size / ((last - from) / 1000),
    repeats: [...ids.values()].reduce((sum, n) => sum + n - 1, 0),
    doubled: [...cardsTo.values()].filter((set) => set.size > 1).length,
    missing: [...expected].filter((id) => !ids.has(id)).length,
    busiestSecond: Math.max(...perSecond.values()),
    bytes: Math.round(bytes / arrivals.length),
  };
}

/** The floor: a pooled nodemailer transport in a process of its own sending `n` copies of a rendered card e-mail. */
async function runFloor(
  sink: SmtpSink,
  n: number,
  mail: { subject: string; text: string; html: string },
): Promise<Delivery> {
  const file = path.join(os.tmpdir(), `artsong-floor-${process.pid}.json`);
  fs.writeFileSync(file, JSON.stringify(mail));
  const script = `
    const nodemailer = require(${JSON.stringify(path.join(root, "node_modules/nodemailer"))});
    const mail = JSON.parse(require('node:fs').readFileSync(${JSON.stringify(file)}, 'utf8'));
    const t = nodemailer.createTransport({ url: ${JSON.stringify(sink.url)}, pool: true, maxConnections: 5, maxMessages: Infinity });
    let next = 0;
    Promise.all(Array.from({ length: 5 }, async () => {
      while (next < ${n}) { const i = next++; await t.sendMail({ from: 'Art & Song Cards <cards@artsongcards.example>', to: 'floor' + i + '@bench.example', subject: mail.subject, text: mail.text, html: mail.html, messageId: '<floor-' + i + '@bench.example>' }); }
    })).then(() => { t.close(); setInterval(() => {}, 60000); }, (e) => { console.error(e); process.exit(1); });`;
  const expected = new Set(
    Array.from({ length: n }, (_, i) => `floor-${i}@bench.example`),
  );
  const from = Date.now();
  const child = spawn(process.execPath, ["-e", script], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const result = await awaitDelivery(sink, expected, from);
  result.cpuMsPerEmail = cpuMs(child.pid!) / n;
  child.kill();
  fs.rmSync(file, { force: true });
  return result;
}

export async function runDeliveryBench(): Promise<void> {
  execFileSync(process.execPath, ["scripts/build.mjs", "--if-stale"], {
    cwd: root,
    stdio: "inherit",
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "artsong-delivery-bench-"));
  const cluster = await startEmbeddedPostgres(path.join(dir, "pg"));
  const sink = await startSmtpSink();
  const procs: Proc[] = [];
  const rows: Record<string, unknown>[] = [];
  const report = (row: Record<string, unknown>) => {
    rows.push(row);
    console.log("  ", JSON.stringify(row));
  };
  try {
    await cluster.createDatabase("delivery");
    const databaseUrl = cluster.url("delivery");
    const baseEnv = {
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      DATABASE_URL: databaseUrl,
      DATA_DIR: path.join(dir, "data"),
      ADMIN_PASSWORD: "bench-admin-password",
      SEED_DEMO: "0",
      PAYMENT_PROVIDER: "test",
      SMTP_URL: sink.url,
      PUBLIC_URL: "https://cards.bench.example",
      CHECKOUT_MAX_PER_10_MINUTES: "10000000",
    };
    // The first start migrates the empty database.
    await (await spawnShop("migrate", { ...baseEnv, APP_ROLE: "web" })).stop();
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const productId = await seedCatalogue(db);
    const jobIds = async (where: string, params: unknown[]) =>
      new Set(
        (
          await db.query(
            `select kind || '-' || id || '@cards.bench.example' as mid from mail_job where ${where}`,
            params,
          )
        ).rows.map((r) => r.mid as string),
      );

    // The floor's message: a card e-mail as the shop renders it.
    const sample = await cardEmail(
      {
        itemUrlUuid: crypto.randomUUID(),
        recipientName: "Friend 1-1",
        recipientEmail: "friend1-1@bench.example",
        senderName: "Shopper 1",
        name: "Snowy Pines",
      } as unknown as OrderItem,
      "https://cards.bench.example",
    );
    const floors = new Map<number, Delivery>();
    const floor = async (n: number) => {
      const size = Math.min(n, FLOOR_MAX);
      if (!floors.has(size)) {
        sink.arrivals.length = 0;
        floors.set(size, await runFloor(sink, size, sample));
        const f = floors.get(size)!;
        report({
          case: `floor: pooled nodemailer (5 connections), ${size.toLocaleString()} e-mails`,
          "e-mails/s": +f.rate.toFixed(1),
          "CPU ms/e-mail": +(f.cpuMsPerEmail ?? NaN).toFixed(2),
          bytes: f.bytes,
          missing: f.missing,
        });
      }
      return floors.get(size)!;
    };

    if (SCENARIOS.has("a")) {
      console.log(
        `\n(a) ${ORDERS_A} orders × ${CARDS_A} cards "send now", ${SHOPPERS} shoppers at once, one shop process (APP_ROLE=all)`,
      );
      const shop = await spawnShop("shop", { ...baseEnv, APP_ROLE: "all" });
      procs.push(shop);
      if (WARM_ORDERS) {
        // A shop on Christmas morning has been open for days: its code is compiled and its
        // connections and templates are ready. A few orders (placed and delivered) first.
        const warm = await placeOrders(shop.url, productId, 900_000, WARM_ORDERS, CARDS_A);
        await awaitDelivery(
          sink,
          await jobIds(`order_id = any($1::uuid[]) and kind in ('receipt', 'card')`, [warm.ids]),
          Date.now(),
        );
      }
      sink.arrivals.length = 0;
      const started = Date.now();
      const placed = await placeOrders(
        shop.url,
        productId,
        0,
        ORDERS_A,
        CARDS_A,
      );
      const expected = await jobIds(
        `order_id = any($1::uuid[]) and kind in ('receipt', 'card')`,
        [placed.ids],
      );
      const delivered = await awaitDelivery(sink, expected, started);
      const f = await floor(expected.size);
      report({
        case: "(a) checkout + delivery",
        "checkout p50 ms": +placed.p50.toFixed(0),
        "checkout p95 ms": +placed.p95.toFixed(0),
        "goal p95 ms": GOALS.p95,
        "orders/s": +placed.perSecond.toFixed(1),
        "e-mails": delivered.emails,
        "e-mails/s": +delivered.rate.toFixed(1),
        "floor e-mails/s": +f.rate.toFixed(1),
        ratio: +(delivered.rate / f.rate).toFixed(2),
        "goal ratio": GOALS.ratio,
        // From the last order to the last of its e-mails (the floor has run on the same server since).
        "s after last order": seconds(
          started + delivered.seconds * 1000 - placed.ended,
        ),
        "goal s": GOALS.aSeconds,
        repeats: delivered.repeats,
        doubled: delivered.doubled,
        missing: delivered.missing,
        "peak RSS MiB": +shop.peakRss.toFixed(0),
        bytes: delivered.bytes,
      });
      if (process.env.BENCH_FIFTY === "0") {
        await shop.stop();
        procs.splice(procs.indexOf(shop), 1);
      } else {
        console.log(`\n(a') 160 orders × 50 cards, checkout only`);
        const fifty = await placeOrders(shop.url, productId, 100_000, 160, 50);
        report({
          case: "(a') checkout of 50 cards",
          "checkout p50 ms": +fifty.p50.toFixed(0),
          "checkout p95 ms": +fifty.p95.toFixed(0),
          "orders/s": +fifty.perSecond.toFixed(1),
        });
        // Its e-mails go out before the next scenario starts from a quiet queue.
        await awaitDelivery(
          sink,
          await jobIds(
            `order_id = any($1::uuid[]) and kind in ('receipt', 'card')`,
            [fifty.ids],
          ),
          Date.now(),
        );
        await shop.stop();
        procs.splice(procs.indexOf(shop), 1);
      }
    }

    const bulk = ["b", "c", "d"].some((s) => SCENARIOS.has(s));
    if (bulk) {
      const orders = Math.ceil(CARDS_B / CARDS_A);
      console.log(
        `\n(b) ${(orders * CARDS_A).toLocaleString()} cards written through the services (${orders.toLocaleString()} orders for a later day, an in-process shop with APP_ROLE=web)`,
      );
      const t = performance.now();
      const tomorrow = new Date(Date.now() + 86_400_000)
        .toISOString()
        .slice(0, 10);
      const writer = await startApp(
        {
          ...loadConfig({}),
          port: 0,
          host: "127.0.0.1",
          dataDir: path.join(dir, "writer"),
          databaseUrl,
          logLevel: "warn",
          jwtSecret: "bench",
          seedDemo: false,
          appRole: "web",
          paymentProvider: "test",
          publicUrl: "https://cards.bench.example",
          limits: {
            registerPerHour: 10,
            checkoutPer10Minutes: 10_000_000,
            thankYouPerHour: 20,
            discountCodesPerHour: 20,
          },
        },
        pino({ level: "warn" }),
      );
      try {
        await placeOrders(
          writer.url,
          productId,
          200_000,
          orders,
          CARDS_A,
          tomorrow,
        );
      } finally {
        await writer.stop();
      }
      console.log(`  written in ${seconds(performance.now() - t)} s`);
      await db.query('analyze mail_job; analyze order_item; analyze "order"');
      const cardJobs = await jobIds(
        `kind = 'card' and subject in (select 'order:' || o.id from "order" o where o.purchaser_email like 'buyer2_____@bench.example')`,
        [],
      );
      const expected = cardJobs;

      /** Puts the bulk cards back as written: queued for later, nothing delivered; the rest of the queue quiet. */
      const reset = async () => {
        await db.query(`delete from mail_job where kind = 'reminder'`);
        await db.query(
          `update mail_job set status = 'sent', sent_at = coalesce(sent_at, now()), claimed_until = null, claim_token = null where kind <> 'card' and status <> 'sent'`,
        );
        await db.query(
          `update mail_job set status = 'queued', attempts = 0, first_attempt_at = null, last_error = null, sent_at = null, claimed_until = null, claim_token = null, due_at = now() + interval '2 days' where kind = 'card' and id in (select (regexp_match(x, '^card-(\\d+)@'))[1]::int from unnest($1::text[]) x)`,
          [[...expected]],
        );
        await db.query(
          `update order_item set delivered_at = null, reminded_at = null where id in (select split_part(ref, ':', 2)::int from mail_job where status = 'queued' and kind = 'card')`,
        );
        await db.query(
          `update "order" set status = 'paid' where status = 'delivered'`,
        );
        await db.query("vacuum analyze mail_job");
        await db.query("truncate mail_rate_second");
      };
      /** T0: every bulk card falls due at once; the workers hear it as they hear a committed job due now. */
      const fallDue = async () => {
        const t0 = Date.now();
        await db.query("begin");
        await db.query(
          `update mail_job set due_at = now() where kind = 'card' and status = 'queued'`,
        );
        await db.query(`select pg_notify('artsong_signals', 'mail-queued')`);
        await db.query("commit");
        return t0;
      };
      const f = await floor(expected.size);

      const run = async (
        label: string,
        workers: number,
        env: Record<string, string> = {},
        kill = false,
      ) => {
        await reset();
        sink.arrivals.length = 0;
        const group: Proc[] = [];
        for (let w = 0; w < workers; w++)
          group.push(
            await spawnShop(`worker ${w + 1}`, {
              ...baseEnv,
              // As deploy/compose.yaml runs a worker: as `npm run serve` does (README: Memory).
              APP_ROLE: "worker",
              ...env,
            }),
          );
        procs.push(...group);
        const cpuOf = (proc: Proc) => { try { return cpuMs(proc.child.pid!); } catch { return NaN; } };
        const cpuBefore = group.map(cpuOf);
        const t0 = await fallDue();
        let killedAt: number | null = null;
        let snapshotTaken = false;
        const delivered = await awaitDelivery(sink, expected, t0, (arrived) => {
          // BENCH_HEAP_SNAPSHOT: the first worker writes a heap snapshot half way (run it with BENCH_NODE_FLAGS=--heapsnapshot-signal=SIGUSR2).
          if (process.env.BENCH_HEAP_SNAPSHOT && !snapshotTaken && arrived >= expected.size / 2) {
            snapshotTaken = true;
            group[0]!.child.kill('SIGUSR2');
          }
          if (kill && killedAt === null && arrived >= expected.size / 2) {
            killedAt = Date.now();
            group[0]!.child.kill("SIGKILL");
            console.log(
              `  worker 1 killed (SIGKILL) after ${arrived.toLocaleString()} cards, ${seconds(killedAt - t0)} s in`,
            );
          }
        });
        // CPU per e-mail of the workers that lived to the end (a killed one is left out).
        const living = group.map((proc, w) => cpuOf(proc) - cpuBefore[w]!).filter((ms) => Number.isFinite(ms));
        const workerCpu = living.reduce((a, b) => a + b, 0) / delivered.emails;
        if (process.env.BENCH_DEBUG) {
          for (const proc of group) console.log(`--- ${proc.name} stderr:\n${proc.stderr().slice(-3000)}`);
          const perSecond = new Map<number, number>();
          for (const a of sink.arrivals) perSecond.set(Math.floor((a.at - t0) / 1000), (perSecond.get(Math.floor((a.at - t0) / 1000)) ?? 0) + 1);
          console.log('  per second from T0:', [...perSecond].sort((x, y) => x[0] - y[0]).map(([k, v]) => `${k}:${v}`).join(' '));
        }
        for (const proc of group) await proc.stop();
        procs.splice(
          0,
          procs.length,
          ...procs.filter((p) => !group.includes(p)),
        );
        report({
          case: label,
          workers,
          "e-mails": delivered.emails,
          "e-mails/s": +delivered.rate.toFixed(1),
          "floor e-mails/s": +f.rate.toFixed(1),
          ratio: +(delivered.rate / f.rate).toFixed(2),
          "goal ratio": GOALS.ratio,
          "s from T0 to last": +delivered.seconds.toFixed(1),
          "goal s": GOALS.bSeconds,
          "busiest second": delivered.busiestSecond,
          ...(kill ? {} : { "CPU ms/e-mail": +workerCpu.toFixed(2), "floor CPU ms/e-mail": +(f.cpuMsPerEmail ?? NaN).toFixed(2) }),
          ...(env.MAIL_MAX_PER_SECOND
            ? { cap: Number(env.MAIL_MAX_PER_SECOND) }
            : {}),
          repeats: delivered.repeats,
          doubled: delivered.doubled,
          missing: delivered.missing,
          "peak RSS MiB": group.map((p) => +p.peakRss.toFixed(0)).join(" / "),
          ...(killedAt ? { "killed at s": seconds(killedAt - t0) } : {}),
        });
      };
      if (SCENARIOS.has("b"))
        for (const n of WORKERS) await run(`(b) ${CARDS_B.toLocaleString("en-US")} cards due at once`, n);
      if (SCENARIOS.has("c"))
        await run(`(c) (b) with MAIL_MAX_PER_SECOND=${CAP}`, 2, {
          MAIL_MAX_PER_SECOND: String(CAP),
        });
      if (SCENARIOS.has("d"))
        await run("(d) (b) with worker 1 killed -9 half way", 2, {}, true);
    }
    await db.end();
    console.log(
      "\nChristmas morning: delivery at volume (each figure beside its floor and goal)",
    );
    console.table(rows);
  } finally {
    shoppers.destroy();
    for (const proc of procs) await proc.stop().catch(() => {});
    await sink.stop();
    await cluster.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
