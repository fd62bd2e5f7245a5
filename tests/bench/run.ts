/** `npm run bench`: runs the benchmarks and prints their measures. */
import { printResults } from './bench-kit.js';
import { printBundle, runBundleBench } from './bundle.bench.js';
import { runMediaBench } from './media.bench.js';
import { runOrdersBench } from './orders.bench.js';

printBundle(runBundleBench());
printResults('Media library: one page of 100 out of 5,000 files in one folder', await runMediaBench());
printResults('Orders: the admin search over 100,000 orders', await runOrdersBench());
