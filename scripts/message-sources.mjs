/**
 * Where each message catalogue's texts are written, and how they are read out of the code (shared by
 * scripts/messages.mjs and the catalogue test).
 */
import fs from 'node:fs';
import path from 'node:path';
import { extract } from '@formatjs/cli-lib';

export const CATALOGUES = [
  // The storefront (the admin console stays in English: contract section 20).
  { name: 'web', dir: 'web/src/i18n/messages', sources: ['web/src/**/*.{ts,tsx}'], ignore: ['web/src/admin/**', 'web/src/apollo/generated/**'] },
  { name: 'server', dir: 'server/src/i18n/messages', sources: ['server/src/**/*.ts', 'gateway/src/**/*.ts'], ignore: [] },
];

/** The English catalogue of `catalogue` as its file holds it: `{id: message}`, ids sorted, two-space JSON. */
export async function extractCatalogue(root, catalogue) {
  const ignored = (file) => catalogue.ignore.some((pattern) => path.matchesGlob(file, pattern));
  const files = catalogue.sources.flatMap((pattern) => fs.globSync(pattern, { cwd: root })).filter((file) => !ignored(file));
  const json = await extract(files.sort().map((file) => path.join(root, file)), { format: 'simple', throws: true });
  const messages = JSON.parse(json);
  const sorted = Object.fromEntries(Object.keys(messages).sort().map((id) => [id, messages[id]]));
  return `${JSON.stringify(sorted, null, 2)}\n`;
}
