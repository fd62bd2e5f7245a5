/**
 * The shop in German against the shop in English (`npm run bench -- languages`; issue goal: within
 * 5 %). The built shop (`npm run serve`, production settings) on 10,000 products, each with a German
 * name and description (so that a German read finds a translation, the path a translated shop
 * takes). Each read is measured in both languages round by round, in alternating order, with
 * autocannon and 32 connections: warm pages (brotli, as browsers ask) under `/de` against their
 * English address, REST `?lang=de` and GraphQL `locale: "de"` against the English read, over random
 * products of a warm working set (WARM) or a fixed page. A bare node:http server answering the English bytes in the same round is
 * the floor each figure is also compared to.
 */
import pg from 'pg';
import { ROUNDS, WARMUP_S, benchShops, load, median, pinLoadGenerator, rawGet, spawnFloor, type FloorBody, type Load, type Served } from './shop-kit.js';

const SIZE = 10_000;
/**
 * The random reads' products: a working set that the read cache (READ_CACHE_MB, 64 MiB by default)
 * holds in both languages at once, so that both are measured warm.
 */
const WARM = 3_000;
/** German may cost at most this much less than English (the 5 %). */
const GOAL = 0.95;

const PRODUCT_QUERY = 'query Product($id: Int!, $locale: String) { product(id: $id, locale: $locale) { id name description price mainImagePath eGreetingCard { messageLocation fontName defaultMessage } } }';
const graphqlGet = (variables: Record<string, unknown>) => `/graphql?query=${encodeURIComponent(PRODUCT_QUERY)}&variables=${encodeURIComponent(JSON.stringify(variables))}`;
const randomId = () => 1 + Math.floor(Math.random() * WARM);

interface LanguageRead {
  name: string;
  /** The read's address in a language (a new one per request where ids are random), of the product `id()` gives. */
  path: (locale: 'en' | 'de', id?: () => number) => () => string;
  headers: Record<string, string>;
  /** Reads of random products (of the first WARM): measured warm, after a pass over each of them in both languages. */
  random?: boolean;
}

const PAGE = { accept: 'text/html', 'accept-encoding': 'br' };
const ALL_READS: LanguageRead[] = [
  { name: 'product page, random id (br)', path: (l, id = randomId) => () => `${l === 'de' ? '/de' : ''}/product/${id()}`, headers: PAGE, random: true },
  { name: '/shop (br)', path: (l) => () => (l === 'de' ? '/de/shop' : '/shop'), headers: PAGE },
  { name: 'home page (br)', path: (l) => () => (l === 'de' ? '/de' : '/'), headers: PAGE },
  { name: 'GET /api/products/{random id}', path: (l, id = randomId) => () => `/api/products/${id()}${l === 'de' ? '?lang=de' : ''}`, headers: {}, random: true },
  { name: 'GraphQL product(random id) (GET)', path: (l, id = randomId) => () => graphqlGet({ id: id(), ...(l === 'de' ? { locale: 'de' } : {}) }), headers: { 'apollo-require-preflight': 'true' }, random: true },
];
/** BENCH_READS=GraphQL measures only the reads whose name holds it. */
const READS = ALL_READS.filter((read) => !process.env.BENCH_READS || read.name.includes(process.env.BENCH_READS));

export interface LanguagesRow {
  read: string;
  en: number;
  de: number;
  floor: number;
  ratio: number;
  enP95: number;
  deP95: number;
}

export async function runLanguagesBench(): Promise<LanguagesRow[]> {
  const shops = await benchShops('languages', [SIZE]);
  let floor: Served | null = null;
  try {
    const db = new pg.Client({ connectionString: shops.envs.get(SIZE)!.DATABASE_URL });
    await db.connect();
    try {
      await db.query(
        `insert into product_translation (product_id, locale, name, description, default_message)
         select p.id, 'de', case when c.product_id is null then 'Album ' else 'Karte ' end || p.id,
                'Die Beschreibung von Produkt ' || p.id || ': Lieder und Bilder für jeden Anlass, sorgfältig ausgewählt für die Menschen, die Sie lieben.',
                case when c.product_id is null then '' else 'Alles Liebe zum Geburtstag!' end
         from product p left join e_greeting_card c on c.product_id = p.id`,
      );
      await db.query('analyze product_translation');
    } finally {
      await db.end();
    }
    await shops.start(0);
    const app = shops.running[0]!.app;
    const bodies: Record<string, FloorBody> = {};
    for (const [i, read] of READS.entries()) {
      for (const locale of ['en', 'de'] as const) {
        const res = await rawGet(app.url + read.path(locale)(), read.headers);
        if (res.status !== 200) throw new Error(`${read.name} (${locale}) answered ${res.status}`);
        if (locale === 'en') bodies[`/${i}`] = { body: res.body, contentType: String(res.headers['content-type']), encoding: res.headers['content-encoding'] === 'br' ? 'br' : undefined };
      }
    }
    floor = await spawnFloor(bodies);
    pinLoadGenerator();

    const rows: LanguagesRow[] = [];
    for (const [i, read] of READS.entries()) {
      const runs: Record<'en' | 'de' | 'floor', Load[]> = { en: [], de: [], floor: [] };
      const measure = (locale: 'en' | 'de', seconds?: number) => load(app.url, { headers: read.headers, path: read.path(locale), seconds });
      if (read.random) {
        // Warm: a pass over every product in each language, as a shop that has run for a while has seen them.
        for (const locale of ['en', 'de'] as const) {
          let next = 0;
          const started = performance.now();
          const pass = await load(app.url, { headers: read.headers, path: read.path(locale, () => 1 + (next++ % WARM)), amount: WARM });
          if (pass.errors) throw new Error(`${read.name} (${locale}), the pass over every product: ${pass.errors} failed requests`);
          console.log(`  ${read.name}: a cold pass over ${WARM.toLocaleString()} products in ${locale === 'de' ? 'German' : 'English'}, ${Math.round(WARM / ((performance.now() - started) / 1000))} req/s`);
        }
      }
      await measure('en', WARMUP_S);
      await measure('de', WARMUP_S);
      for (let round = 0; round < ROUNDS; round++) {
        runs.floor.push(await load(`${floor.url}/${i}`));
        for (const locale of round % 2 === 0 ? (['en', 'de'] as const) : (['de', 'en'] as const)) runs[locale].push(await measure(locale));
      }
      const errors = [...runs.en, ...runs.de].reduce((sum, run) => sum + run.errors, 0);
      if (errors) throw new Error(`${read.name}: ${errors} failed requests`);
      const rps = (list: Load[]) => median(list.map((run) => run.rps));
      // The ratio of each round's German figure to its English one: both measured within seconds of each other.
      const ratio = median(runs.de.map((run, k) => run.rps / runs.en[k]!.rps));
      rows.push({ read: read.name, en: rps(runs.en), de: rps(runs.de), floor: rps(runs.floor), ratio, enP95: median(runs.en.map((r) => r.p95)), deP95: median(runs.de.map((r) => r.p95)) });
      console.log(`  ${read.name}: English ${Math.round(rows.at(-1)!.en)} req/s, German ${Math.round(rows.at(-1)!.de)} req/s (${ratio.toFixed(3)})`);
    }
    console.log(`\nThe shop in German against English, ${SIZE.toLocaleString()} products with German names (median of ${ROUNDS} rounds; goal: German ≥ ${GOAL} of English)`);
    console.table(
      rows.map((r) => ({
        read: r.read,
        'English req/s': Math.round(r.en),
        'German req/s': Math.round(r.de),
        'German / English': +r.ratio.toFixed(3),
        'English / floor': +(r.en / r.floor).toFixed(3),
        'German / floor': +(r.de / r.floor).toFixed(3),
        'p95 ms en / de': `${r.enP95.toFixed(1)} / ${r.deP95.toFixed(1)}`,
        met: r.ratio >= GOAL ? 'yes' : 'NO',
      })),
    );
    return rows;
  } finally {
    await floor?.stop();
    await shops.close();
  }
}
