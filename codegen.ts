import type { CodegenConfig } from '@graphql-codegen/cli';

/** Typed documents for the operations written next to each screen, from the checked-in schema. */
const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: ['web/src/**/*.{ts,tsx}', '!web/src/apollo/generated/**'],
  ignoreNoDocuments: true,
  generates: {
    'web/src/apollo/generated/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: { useTypeImports: true, enumsAsTypes: true, scalars: { DateTimeISO: 'string', Upload: 'File', Decimal: 'string' } },
    },
  },
};

export default config;
