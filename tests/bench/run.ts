/** `npm run bench`: runs the benchmarks and prints their measures; `npm run bench -- boot media` runs only those. */
import { printResults } from './bench-kit.js';
import { runBootBench } from './boot.bench.js';
import { printBundle, runBundleBench } from './bundle.bench.js';
import { runMediaBench } from './media.bench.js';
import { runOrdersBench } from './orders.bench.js';
import { runSalesBench } from './sales.bench.js';
import { runReadsBench } from './reads.bench.js';
import { runPagesBench } from './pages.bench.js';
import { runCrawlBench } from './crawl.bench.js';
import { runCustomersBench } from './customers.bench.js';
import { runDeliveryBench } from './delivery.bench.js';
import { runCheckoutBench } from './checkout.bench.js';
import { runShopSearchBench } from './shop-search.bench.js';
import { runPreviewBench } from './preview.bench.js';
import { runAdminProductsBench } from './admin-products.bench.js';
import { runAdminOrdersBench } from './admin-orders.bench.js';
import { printPromotions, runPromotionsBench } from './promotions.bench.js';
import { runRenewalsBench } from './renewals.bench.js';
import { runApiKeysBench } from './api-keys.bench.js';
import { runWebhooksBench } from './webhooks.bench.js';
import { runLanguagesBench } from './languages.bench.js';
import { runEcardPagesBench } from './ecard-pages.bench.js';

const only = process.argv.slice(2);
const wanted = (suite: string) => only.length === 0 || only.includes(suite);

if (wanted('bundle')) printBundle(runBundleBench());
if (wanted('media')) printResults('Media library: one page of 100 out of 5,000 files in one folder', await runMediaBench());
if (wanted('orders')) printResults('Orders: the admin search over 100,000 orders', await runOrdersBench());
if (wanted('sales')) printResults('Sales over ranges and the exports, 200,000 orders (goal: the 365-day summary p95 < 100 ms)', await runSalesBench());
if (wanted('customers')) printResults('Customers: pages of 25 out of 100,000 accounts (keyset, an index per sort)', await runCustomersBench());
if (wanted('search')) printResults('Shop search: each order, a price range and a type over 10,000 and 100,000 products (goal: p95 < 20 ms warm)', await runShopSearchBench());
if (wanted('preview')) printResults('Preview before paying: POST /api/ecards/preview against the real e-card page of the same card', await runPreviewBench());
if (wanted('admin-products')) printResults('The console\'s products: 100,000 products, each order and filter, the first page and one 50,000 rows in (goal: p95 < 50 ms); a bulk price change of 1,000 (goal: < 2 s)', await runAdminProductsBench());
if (wanted('admin-orders')) printResults('The console\'s orders: 200,000 orders, each filter, the first page and one 50,000 rows in, with the count (goal: p95 < 50 ms)', await runAdminOrdersBench());
if (wanted('promotions')) printPromotions(await runPromotionsBench());
if (wanted('checkout')) printResults('Checkout: placeOrder of one card line to 1 and to 100 recipients (goal: p95 < 250 ms at 100); the address book at 2,000 contacts', await runCheckoutBench());
if (wanted('boot')) printResults('Start-up of a built shop (npm run serve), spawn to /readyz 200', await runBootBench());
if (wanted('reads')) await runReadsBench();
if (wanted('pages')) await runPagesBench();
if (wanted('crawl')) await runCrawlBench();
if (wanted('renewals')) await runRenewalsBench();
if (wanted('api-keys')) await runApiKeysBench();
if (wanted('webhooks')) await runWebhooksBench();
if (wanted('languages')) await runLanguagesBench();
if (wanted('ecard')) await runEcardPagesBench();
// Not in the default run (it takes about an hour): `npm run bench -- delivery`.
if (only.includes('delivery')) await runDeliveryBench();
