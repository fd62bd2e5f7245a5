/**
 * The e-card page as each recipient opens it (`npm run bench -- ecard`, issue 48): Christmas morning,
 * when every opening is a first opening. The built shop (`npm run serve`, production settings) on a
 * catalogue of 1,000 products and 10,400 delivered e-cards (seeded with set-based SQL and delivered
 * by one update, as the mail queue marks them; one in ten with a thank-you, one in twenty a group card
 * of three signatures, a quarter of them in German). Each round starts a fresh shop (nothing in its
 * memory) and opens every card once, in a random order, with autocannon at 32 connections and
 * `Accept-Encoding: gzip, deflate, br`, beside a bare node:http server answering one card's page in
 * the same bytes (the floor). BENCH_NODE_FLAGS=--cpu-prof profiles the shop.
 */
import pg from 'pg';
import { benchShops, cpuMs, load, median, pinLoadGenerator, rawGet, spawnFloor, type Load, type Served } from './shop-kit.js';

const CARDS = Number(process.env.BENCH_CARDS ?? 10_400);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const RATIO_GOAL = 0.1;
const P95_GOAL_MS = 50;
const HEADERS = { accept: 'text/html', 'accept-encoding': 'gzip, deflate, br' };

/** 10,400 delivered e-cards of the catalogue's cards, their replies and group cards' signatures. */
async function seedCards(db: pg.Client, images: number[], songs: number[]): Promise<string[]> {
  const started = performance.now();
  await db.query('begin');
  await db.query('set local statement_timeout = 0');
  const media = (id: string, mime: string) => `(select json_build_object('path', f.file_path, 'name', f.friendly_name, 'mimeType', '${mime}', 'width', f.width, 'height', f.height) from media_file f where f.id = ${id})`;
  const design = `json_build_object('messageLocation', 'middle-center', 'fontName', 'Open Sans',
      'cover', ${media('$3::int', 'image/png')}, 'greeting', ${media('$4::int', 'image/png')}, 'back', ${media('$5::int', 'image/png')},
      'extras', json_build_array(${media('$6::int', 'image/png')}, ${media('$7::int', 'image/png')}),
      'songs', json_build_array(${media('$8::int', 'audio/mpeg')}, ${media('$9::int', 'audio/mpeg')}))`;
  await db.query(`create temporary table bench_card as select n, gen_random_uuid() as order_id, gen_random_uuid() as uuid from generate_series(1, $1::int) as n`, [CARDS]);
  await db.query(
    `insert into "order" (id, purchaser_email, status, total, payment_provider, payment_reference, card_last4, idempotency_key, request_hash, item_names, locale, created_at)
     select order_id, 'buyer' || n || '@example.com', 'delivered', 4.99, 'test', 'test_ch_' || n, '4242', 'ecard-bench-' || n, 'bench', 'card ' || n,
            case when n % 4 = 0 then 'de' else 'en' end, now() - interval '2 days' from bench_card`,
  );
  await db.query(
    `insert into order_item (order_id, position, product_id, name, price, quantity, item_url_uuid, recipient_name, recipient_email, sender_name, message, deliver_at, time_zone, card)
     select order_id, 0, $2::int * (1 + n % 20), 'Card ' || n, 4.99, 1, uuid, 'Recipient ' || n, 'recipient' || n || '@example.com', 'Sender ' || n,
            'Merry Christmas, dear friend number ' || n || E'!\nWith love from all of us.', now(), 'Europe/London', ${design}
     from bench_card where n <= $1::int`,
    [CARDS, 50, images[0], images[1], images[2], images[3], images[4], songs[0], songs[1]],
  );
  await db.query(`insert into group_card (item_id, signing_token, collect_until) select i.id, 'bench-' || b.n, now() - interval '1 day' from bench_card b join order_item i on i.item_url_uuid = b.uuid where b.n % 20 = 0`);
  await db.query(
    `insert into group_card_signature (group_card_id, name, message, edit_token_hash, client_key_hash, content_hash)
     select g.id, 'Signer ' || k, 'All the best for the holidays, from signer ' || k || '.', md5(g.id || '-' || k) || md5(k || ''), md5('c'), md5(g.id || 'x' || k) || md5('y')
     from group_card g cross join generate_series(1, 3) as k`,
  );
  // Delivered as the mail queue marks them: one update of their rows.
  await db.query(`update order_item set delivered_at = now() - interval '1 day' where item_url_uuid is not null`);
  await db.query(`insert into ecard_reply (item_id, name, message) select i.id, 'Recipient ' || b.n, 'Thank you!' from bench_card b join order_item i on i.item_url_uuid = b.uuid where b.n % 10 = 0`);
  const uuids = (await db.query(`select uuid::text from bench_card`)).rows.map((r) => r.uuid as string);
  await db.query('commit');
  await db.query('analyze "order"; analyze order_item; analyze ecard_reply; analyze group_card; analyze group_card_signature');
  console.log(`  ${CARDS.toLocaleString()} delivered e-cards seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return uuids;
}

/** Waits until the shop has drawn every delivered card's page ahead of its opening (when it keeps them). */
async function pagesDrawn(db: pg.Client): Promise<string> {
  if (!(await db.query(`select to_regclass('ecard_page') as t`)).rows[0].t) return 'not drawn ahead';
  const started = performance.now();
  for (;;) {
    const [{ waiting }] = (await db.query(`select count(*)::int as waiting from order_item i where i.item_url_uuid is not null and i.delivered_at is not null and not exists (select 1 from ecard_page p where p.item_url_uuid = i.item_url_uuid and p.br is not null)`)).rows;
    if (waiting === 0) return `drawn ahead in ${((performance.now() - started) / 1000).toFixed(1)} s after start`;
    if (performance.now() - started > 600_000) throw new Error(`${waiting} pages still not drawn after 10 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const shuffled = <T>(values: T[]): T[] => {
  const out = [...values];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};

export interface EcardRow {
  rps: number;
  floor: number;
  ratio: number;
  p50: number;
  p95: number;
  floorP95: number;
  cpu: number;
}

export async function runEcardPagesBench(): Promise<EcardRow> {
  const shops = await benchShops('ecard', [1000]);
  const env = shops.envs.get(1000)!;
  const db = new pg.Client({ connectionString: env.DATABASE_URL });
  await db.connect();
  let floor: Served | null = null;
  try {
    const uuids = await seedCards(db, shops.catalogue.images, shops.catalogue.songs);
    const bares: Load[] = [];
    // The server's CPU time per opening: what a first opening costs, however busy the machine is.
    const passes: (Load & { cpu: number })[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await shops.start(0);
      const shop = shops.running[0]!.app;
      console.log(`  round ${round + 1}/${ROUNDS}: ${await pagesDrawn(db)}`);
      if (!floor) {
        const sample = await rawGet(`${shop.url}/ecards/${uuids[1]}.html`, HEADERS);
        if (sample.status !== 200) throw new Error(`the e-card page answered ${sample.status}`);
        floor = await spawnFloor({ '/': { body: sample.body, contentType: 'text/html; charset=utf-8', encoding: sample.headers['content-encoding'] } });
        console.log(`  the floor answers ${sample.body.length} bytes (${sample.headers['content-encoding']}) of one card's page`);
        pinLoadGenerator();
      }
      bares.push(await load(`${floor.url}/`, { headers: HEADERS, seconds: 3 }));
      // Every card once, in a random order: each opening a first opening, on a shop whose memory holds none of them.
      const order = shuffled(uuids);
      let next = 0;
      const started = performance.now();
      const cpuBefore = cpuMs(shop.child.pid!);
      const opened = await load(shop.url, { headers: HEADERS, path: () => `/ecards/${order[next++ % order.length]}.html`, amount: CARDS });
      // A fixed number of requests: the rate is theirs over the time they took (autocannon's per-second average counts a last partial second).
      const pass = { ...opened, rps: opened.requests / ((performance.now() - started) / 1000), cpu: (cpuMs(shop.child.pid!) - cpuBefore) / CARDS };
      if (pass.errors) {
        const statuses: Record<number, number> = {};
        for (const uuid of order.slice(0, 300)) {
          const status = (await rawGet(`${shop.url}/ecards/${uuid}.html`, HEADERS)).status;
          statuses[status] = (statuses[status] ?? 0) + 1;
        }
        throw new Error(`${pass.errors} failed openings; statuses of 300 of them now: ${JSON.stringify(statuses)}\n${shop.stderr()}`);
      }
      passes.push(pass);
      console.log(`  round ${round + 1}/${ROUNDS}: first openings ${Math.round(pass.rps)} req/s, ${pass.cpu.toFixed(2)} ms of server CPU each (p50 ${pass.p50.toFixed(1)} ms, p95 ${pass.p95.toFixed(1)} ms), floor ${Math.round(bares.at(-1)!.rps)} req/s (p95 ${bares.at(-1)!.p95.toFixed(1)} ms), ratio ${(pass.rps / bares.at(-1)!.rps).toFixed(3)}`);
      if (shop.stderr()) console.log(`  the shop logged:\n${shop.stderr().trimEnd()}`);
      await shops.stopShops();
    }
    const row: EcardRow = {
      rps: median(passes.map((p) => p.rps)),
      floor: median(bares.map((b) => b.rps)),
      ratio: median(passes.map((p, i) => p.rps / bares[i]!.rps)),
      p50: median(passes.map((p) => p.p50)),
      p95: median(passes.map((p) => p.p95)),
      floorP95: median(bares.map((b) => b.p95)),
      cpu: median(passes.map((p) => p.cpu)),
    };
    console.log(`\nThe e-card page, random first openings over ${CARDS.toLocaleString()} delivered cards (32 connections, median of ${ROUNDS} fresh shops)`);
    const met = row.ratio >= RATIO_GOAL && row.p95 < P95_GOAL_MS;
    console.table([{ 'req/s': Math.round(row.rps), 'floor req/s': Math.round(row.floor), 'floor p95 ms': +row.floorP95.toFixed(1), ratio: +row.ratio.toFixed(3), 'p50 ms': +row.p50.toFixed(1), 'p95 ms': +row.p95.toFixed(1), 'CPU ms an opening': +row.cpu.toFixed(2), goal: `≥ ${RATIO_GOAL}, p95 < ${P95_GOAL_MS} ms`, met: met ? 'yes' : 'NO' }]);
    return row;
  } finally {
    await db.end();
    await floor?.stop();
    await shops.close();
  }
}
