import crypto from 'node:crypto';
import { preferredLocale } from '../../server/src/rules/index.js';
import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import express, { type RequestHandler } from 'express';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import type { Logger } from 'pino';
import type { MikroORM } from '@mikro-orm/postgresql';
import graphqlUploadExpress from 'graphql-upload/graphqlUploadExpress.mjs';
import { expressMiddleware } from '@as-integrations/express5';
import type { ApolloServer } from '@apollo/server';
import type { AppConfig } from '../../server/src/config.js';
import { createRequestContext, isApiKeyToken, type RequestContext } from '../../server/src/core/context.js';
import { plainAddress } from '../../server/src/core/client-address.js';
import type { Services } from '../../server/src/services.js';
import { healthRouter } from './health.js';
import { errorHandler, graphqlUploadErrors, sendError } from './http-errors.js';
import { mountRoutes } from './route.js';
import { fileRoutes, pageRoutes, restRoutes } from './routes/index.js';
import { CLIENT_PAGES, sendAppShell, webAssets, webDistDir } from './web-client.js';
import type { RouteTemplates } from './route-templates.js';
import { logSerializers } from './log-serializers.js';
import { bootScript } from './boot-script.js';
import { refuseNul } from './input-guard.js';
import { InitialStateReader } from './initial-state.js';
import { AppError } from '../../server/src/core/errors.js';
import { UploadSlots, uploadGate } from './upload-gate.js';
import { stripeWebhookRoute } from './routes/stripe-webhook.routes.js';
import { privateByDefault } from './http-cache.js';
import { graphqlCache, type GraphqlDocuments } from './graphql-cache.js';
import { StorefrontPages } from './page-cache.js';
import { PageDrawer } from './page-drawer.js';
import { StoredProductPages, pageEdition } from './stored-pages.js';
import type { GraphQLSchema } from 'graphql';
import { sessionCookieOf } from './session-cookie.js';
import { apiRateLimit } from './api-rate-limit.js';
import { LOCALIZED_PAGE_PATHS, PREFIXED_LOCALES, consoleInEnglish, isConsolePath, localizedRouter } from './page-locale.js';
import { splitLocalePath } from '../../server/src/rules/locales.js';


export interface GatewayDeps {
  config: AppConfig;
  orm: MikroORM;
  services: Services;
  apollo: ApolloServer<RequestContext>;
  /** The schema Apollo serves (the pages read their first data through it directly). */
  schema: GraphQLSchema;
  /** The GraphQL documents the read cache knows, shared with the fast path ahead of Express. */
  graphqlDocuments: GraphqlDocuments;
  log: Logger;
  /** Where the routes mounted here are recorded, for the log and the metrics to name requests by. */
  templates: RouteTemplates;
}

/** The request's id: the caller's (a proxy's) X-Request-Id when it is a sane one, else a new one. */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && /^[\w.-]{1,100}$/.test(incoming) ? incoming : crypto.randomUUID();
}

/** The security headers of every answer (helmet), the same for every request. */
export function securityHeaders(config: AppConfig): RequestHandler {
  // Stripe's card element runs from js.stripe.com in a frame of its own, and talks to api.stripe.com.
  const stripe = config.paymentProvider === 'stripe';
  return helmet({
    contentSecurityPolicy: {
      directives: {
        // The e-card font service (the font picker loads its stylesheets) and in-browser workers of the explorer.
        'style-src': ["'self'", "'unsafe-inline'", 'https://fonts.googleapis.com'],
        'font-src': ["'self'", 'data:', 'https://fonts.gstatic.com'],
        'img-src': ["'self'", 'data:', 'blob:'],
        'media-src': ["'self'", 'blob:'],
        'worker-src': ["'self'", 'blob:'],
        'script-src': ["'self'", ...(stripe ? ['https://js.stripe.com'] : [])],
        ...(stripe ? { 'frame-src': ["'self'", 'https://js.stripe.com', 'https://hooks.stripe.com'], 'connect-src': ["'self'", 'https://api.stripe.com'] } : {}),
        // TLS is the reverse proxy's business; on plain http these would break the site.
        'upgrade-insecure-requests': null,
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: false,
  }) as RequestHandler;
}

export function createGateway({ config, orm, services, apollo, schema, graphqlDocuments, log, templates }: GatewayDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.locals.publicUrl = config.publicUrl;

  app.use(
    pinoHttp({
      logger: log,
      genReqId(req, res) {
        const id = requestIdOf(req);
        res.setHeader('X-Request-Id', id);
        return id;
      },
      autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
      // A request is logged by its route template, never its address (links carry secrets).
      serializers: logSerializers(templates),
      wrapSerializers: false,
    }),
  );
  app.use(securityHeaders(config));

  app.use(healthRouter(orm, services.media.storage));

  // One EntityManager fork and one auth context per request, for REST and GraphQL alike.
  app.use((req, res, next) => {
    req.ctx = createRequestContext({
      em: () => orm.em.fork(),
      requestId: String(req.id),
      ip: plainAddress(req.ip ?? req.socket.remoteAddress ?? 'unknown'),
      log: req.log,
      authorization: req.headers.authorization,
      // A key (`ask_…`) is not a session: the api-keys service knows it.
      authenticate: (em, token) => (isApiKeyToken(token) ? services.apiKeys.authenticate(em, token) : services.auth.authenticate(em, token)),
      sessionCookie: sessionCookieOf(req, res, config.production),
      locale: preferredLocale(req.headers['accept-language']),
    });
    next();
  });
  // Every API request is counted (per key, or per client address) and its answer says where the count stands (unless API_KEY_RATE_PER_MINUTE is off).
  if (config.apiRequestLimit) app.use(['/api', '/graphql'], apiRateLimit(services));

  const web = webDistDir();
  const explorer = path.join(web, 'explorer.html');
  const storefrontGraphql = graphqlCache(services, graphqlDocuments);
  app.get('/graphql', storefrontGraphql.get);
  app.get('/graphql', (req, res, next) => {
    // A browser opening /graphql gets the explorer; GET operations (?query=) go on to Apollo.
    if (req.query.query === undefined && req.accepts(['json', 'html']) === 'html' && config.graphqlIntrospection && fs.existsSync(explorer)) {
      res.sendFile(explorer);
      return;
    }
    next();
  });
  const uploadSlots = new UploadSlots(config.maxConcurrentUploads);
  app.use(
    '/graphql',
    uploadGate(services, uploadSlots, 'graphql'),
    graphqlUploadExpress({ maxFileSize: services.media.maxFileBytes, maxFiles: services.media.maxFiles }),
    graphqlUploadErrors,
    express.json({ limit: '1mb' }),
    storefrontGraphql.post,
    expressMiddleware(apollo, { context: async ({ req }) => req.ctx }),
  );

  // Stored media: public (also while under construction), ahead of the API router and its body parser.
  // Only stored names are served: any other name (a NUL in it too) is simply not found.
  const files = express.Router();
  const stored = fileRoutes(services);
  mountRoutes(files, stored, services.settings);
  app.use('/api/uploads', files);

  // No NUL character in an address or a query string reaches a route (bodies are checked once parsed, in the API router).
  app.use(refuseNul);

  app.post('/api/payments/stripe/webhook', ...stripeWebhookRoute(services));

  const api = express.Router();
  api.use(privateByDefault);
  api.use(express.json({ limit: '1mb' }));
  api.use(refuseNul);
  api.post('/media/files/*path', uploadGate(services, uploadSlots, 'rest'));
  const rest = restRoutes(services);
  mountRoutes(api, rest, services.settings);
  api.use((_req, res) => sendError(res, new AppError('NOT_FOUND', 'No such API route')));
  app.use('/api', api);

  const pages = express.Router();
  const drawer = new PageDrawer(web, new InitialStateReader(schema, services, log), services.settings, config.publicUrl);
  const drawn = pageRoutes(services, { site: config.publicUrl, drawer, pages: new StorefrontPages(services.cache, services.settings, new StoredProductPages(services.productPages, pageEdition(web, config.publicUrl))) });
  mountRoutes(pages, drawn, services.settings);
  app.use(consoleInEnglish);
  app.use(pages);
  // The same pages under each language's prefix (`/de/shop`): see page-locale.ts.
  const localized = drawn.filter((route) => LOCALIZED_PAGE_PATHS.has(route.path));
  const clientPages = CLIENT_PAGES.filter((path) => !isConsolePath(path));
  app.use(
    PREFIXED_LOCALES.map((locale) => `/${locale}`),
    localizedRouter((router) => mountRoutes(router, localized, services.settings)),
  );
  // In the order Express tries them.
  templates
    .add('', [{ method: 'get', path: '/graphql' }, { method: 'post', path: '/graphql' }])
    .add('/api/uploads', stored)
    .add('', [{ method: 'post', path: '/api/payments/stripe/webhook' }])
    .add('/api', rest)
    .add('', drawn);
  for (const locale of PREFIXED_LOCALES) templates.add(`/${locale}`, localized);
  templates.add('', CLIENT_PAGES.map((path) => ({ method: 'get', path })));
  for (const locale of PREFIXED_LOCALES) templates.add(`/${locale}`, clientPages.map((path) => ({ method: 'get', path })));

  app.use(bootScript(web));
  app.use(webAssets(web));
  // Client-side routes: every other GET that wants a page gets the app shell.
  app.get(/.*/, (req, res, next) => {
    if (req.accepts(['html', 'json']) !== 'html') return next();
    sendAppShell(res, web, { locale: splitLocalePath(req.path).locale });
  });
  app.use((_req, res) => sendError(res, new AppError('NOT_FOUND', 'Not found')));
  app.use(errorHandler);
  return app;
}
