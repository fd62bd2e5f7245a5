import { scaleOutSuite } from '../helpers/scale-out-suite.js';

/**
 * The shop scaled out: several real processes (each its own DATA_DIR, as separate machines would
 * have) on one PostgreSQL database and one S3 bucket, started at the same moment on an empty
 * database, then driven alternately: whatever one process did, the others must see.
 */
scaleOutSuite(['all', 'all']);
