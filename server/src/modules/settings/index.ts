/** The settings module's front door: what other modules may use of it. Everything else in this folder is its own. */
export { ensureSecret, readSecret } from './shop-secrets.js';
