import { scaleOutSuite } from '../helpers/scale-out-suite.js';

/** The shop scaled out to two web processes and one that also runs the background jobs (see multi-process.test.ts). */
scaleOutSuite(['web', 'web', 'all']);
