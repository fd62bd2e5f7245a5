import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { printSchemaText } from '../../server/src/schema/schema-text.js';

describe('schema.graphql', () => {
  it('is the schema the server builds (run `npm run codegen` after changing the API)', () => {
    const checkedIn = fs.readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');
    expect(checkedIn).toBe(printSchemaText());
  });
});
