/** `npm run bench`: runs the benchmarks and prints their timings. */
import { printResults, runMediaBench } from './media.bench.js';

printResults('Media library: one page of 100 out of 5,000 files in one folder', await runMediaBench());
