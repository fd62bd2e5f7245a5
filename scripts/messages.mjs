/**
 * Writes the English catalogues from the texts in the code (`npm run messages`): every
 * `defaultMessage` beside its id, into web/src/i18n/messages/en.json (what the storefront shows)
 * and server/src/i18n/messages/en.json (what the server writes: e-mails, the e-card and signing
 * pages). German, French and Spanish translate them key for key (tests/unit/message-catalogues.test.ts).
 *
 *   node scripts/messages.mjs          write both
 *   node scripts/messages.mjs --check  fail when either is not current
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractCatalogue, CATALOGUES } from './message-sources.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
let stale = false;
for (const catalogue of CATALOGUES) {
  const file = path.join(root, catalogue.dir, 'en.json');
  const text = await extractCatalogue(root, catalogue);
  if ((fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '') === text) continue;
  if (check) {
    console.error(`${path.relative(root, file)} is not current: run npm run messages`);
    stale = true;
  } else {
    fs.writeFileSync(file, text);
    console.log(`wrote ${path.relative(root, file)}`);
  }
}
if (stale) process.exit(1);
