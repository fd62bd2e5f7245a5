/**
 * The layering of the code, checked by `npm run lint:deps` (part of `npm test`). Imports run only
 * downward: the gateway and the runtime compose the server's modules; modules build on `core`;
 * `core` knows no feature. On the web: the app shell composes the features, which build on
 * `common`, `auth` and `apollo`; those know no feature and not the shell.
 */
module.exports = {
  forbidden: [
    {
      name: 'server-core-knows-no-feature',
      comment: 'server/src/core is the bottom layer: it may not import a module, the schema, the demo or the composition root.',
      severity: 'error',
      from: { path: '^server/src/core/' },
      to: { path: '^server/src/(modules|schema|demo|db|services|runtime|entities)' },
    },
    {
      name: 'server-modules-below-composition',
      comment: 'Feature modules may not import the composition root, the services bag, the schema builder or the demo.',
      severity: 'error',
      from: { path: '^server/src/modules/' },
      to: { path: '^server/src/(services|runtime|schema|demo|entities)\\.?' },
    },
    {
      name: 'server-below-gateway-and-web',
      comment: 'The server never imports the HTTP gateway or the web client.',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^(gateway|web)/' },
    },
    {
      name: 'shared-rules-are-pure',
      comment: 'server/src/rules is shared with the web client: it imports only itself and pure libraries (no Node built-ins, no other server code).',
      severity: 'error',
      from: { path: '^server/src/rules/' },
      to: { path: '^(server/src/(?!rules/)|gateway/|web/)' },
    },
    {
      name: 'shared-rules-without-node',
      comment: 'server/src/rules runs in browsers too: no Node built-in modules.',
      severity: 'error',
      from: { path: '^server/src/rules/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'web-takes-only-shared-rules-from-server',
      comment: 'The web client may use the server only through its shared rules (server/src/rules, `@rules`).',
      severity: 'error',
      from: { path: '^web/' },
      to: { path: '^(server/src/(?!rules/)|gateway/)' },
    },
    {
      name: 'web-shell-on-top',
      comment: 'Only the app shell (and the entry points) may import web/src/app.',
      severity: 'error',
      from: { path: '^web/src/', pathNot: '^web/src/(app/|main\\.tsx|entry-server\\.tsx)' },
      to: { path: '^web/src/app/' },
    },
    {
      name: 'web-shared-knows-no-feature',
      comment: 'common, auth, settings and apollo are below the features: they may not import a storefront, admin, blog or explorer screen.',
      severity: 'error',
      from: { path: '^web/src/(common|auth|apollo|settings)/' },
      to: { path: '^web/src/(storefront|admin|blog|explorer)/' },
    },
    {
      name: 'no-circular',
      comment: 'No import cycles between files (entities that refer to each other excepted: the ORM maps both sides).',
      severity: 'error',
      from: { pathNot: '\\.entity\\.ts$' },
      to: { circular: true, dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|ssr)/|web/src/apollo/generated/' },
    parser: 'swc',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
