import { lexicographicSortSchema, printSchema } from 'graphql';
import { buildSchema } from './build-schema.js';

/** The schema as checked in at schema.graphql: sorted, so that it diffs cleanly. */
export function printSchemaText(): string {
  return `# Generated from the type-graphql schema by \`npm run schema\`; do not edit by hand.\n\n${printSchema(lexicographicSortSchema(buildSchema(null)))}\n`;
}
