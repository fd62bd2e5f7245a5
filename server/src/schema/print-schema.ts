/** Writes schema.graphql at the root from the type-graphql schema (`npm run schema`). */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { printSchemaText } from './schema-text.js';

const target = fileURLToPath(new URL('../../../schema.graphql', import.meta.url));
fs.writeFileSync(target, printSchemaText());
console.log(`Wrote ${target}`);
