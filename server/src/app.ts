import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { constants as zlib } from 'node:zlib';
import compress from '@fastify/compress';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import { failure, messages, type FinderPageRenderer } from '@petreg/contract';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Mailer } from './adapters/mail/index.js';
import type { PaymentProvider } from './adapters/payments/index.js';
import { type Places } from './adapters/places/index.js';
import { type FileStorage } from './adapters/storage/index.js';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/client.js';
import { AppError } from './errors.js';
import { jsonBodyLimit, readsOnly } from './http.js';
import { type PaymentService } from './modules/payments/service.js';
import { builtAssets, builtIndexPage } from './builtWeb.js';
import { builtFinderPageRenderer, finderPageRoutes } from './modules/public/finderPages.js';
import { webDistFolder, webServerEntryOf } from './paths.js';
import { authPlugin } from './plugins/auth.js';
import { documentHeadersPlugin, securityHeaderSets, securityHeadersPlugin } from './plugins/securityHeaders.js';
import { writeAdmissionPlugin } from './plugins/writeAdmission.js';
import { useJsonBodyParser } from './plugins/jsonBody.js';
import { registerApi } from './apiRoutes.js';
import { countedInDatabase } from './rateLimitStore.js';
import { answerErrors, answerUnavailable } from './errorHandler.js';
import { createErrorReports, type ErrorReports } from './modules/operations/errorReports.js';
import { createMetrics, noMetrics, type Metrics } from './modules/operations/metrics.js';
import { createReadiness } from './modules/operations/readiness.js';
import { operationsRoutes } from './modules/operations/routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** For the worker's daily sweep, which runs beside the HTTP routes. */
    payments: PaymentService;
    /** For the worker: deletes the stored images closings noted and could not delete at once. */
    deleteDiscardedFiles: () => Promise<{ deleted: number; left: number }>;
    /** What /metrics counts, the worker's sends among them; does nothing unless METRICS_TOKEN is set. */
    metrics: Metrics;
    /** Unexpected errors of requests and of the worker, to Sentry; does nothing unless SENTRY_DSN is set. */
    errorReports: ErrorReports;
  }
}

export interface AppDependencies {
  config: Config;
  database: DatabaseHandle;
  mailer: Mailer;
  jwtSecret: string;
  /** Uploaded images; files under DATA_DIR/uploads when not given. */
  storage?: FileStorage;
  /** Card payments; Stripe or the portal's own checkout, as configured, when not given. */
  payments?: PaymentProvider;
  /** Vet search; Google Places or the directory of sites, as configured, when not given. */
  places?: Places;
  /** Where the built web app is served from; nothing is served when the folder is missing. */
  webRoot?: string;
  /**
   * Renders the finder's pages on the server; by default the web build's server entry beside `webRoot`
   * (web/dist-ssr), and without one the browser renders them like every screen.
   */
  finderPages?: FinderPageRenderer;
}

/** The host the maps' tiles come from, as a CSP source ({s}, a tile server's letter, as a wildcard); none for the portal's own. */
function tileOrigin(template: string): string[] {
  if (template.startsWith('/')) return [];
  return [new URL(template.replaceAll('{s}', 'tile-server-letter')).origin.replace('tile-server-letter', '*')];
}

/** Pretty lines through pino-pretty (in a worker thread) for a terminal, plain JSON otherwise. */
export function loggerOptions(config: Pick<Config, 'logLevel' | 'logFormat'>) {
  if (config.logFormat === 'json' || config.logLevel === 'silent') return { level: config.logLevel };
  return {
    level: config.logLevel,
    transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname', singleLine: true } },
  };
}

/**
 * Fastify's trustProxy from TRUST_PROXY. A hop count trusts the connection and the hops nearest it,
 * as many as it says (Fastify's own number trusts none, so every client would share the proxy's address).
 */
const trustedHops = (trust: Config['trustProxy']) => (typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust);

/**
 * Writes in progress at once on the embedded database: a pet's update takes about 8 ms there
 * (bench:load, 2 cores), so the last of them answers within about half a second.
 */
const EMBEDDED_WRITES_MAX = 32;

/** Zod's compilers as Fastify's factories of them (whose types name ajv's). */
const zodCompilers = { buildValidator: () => validatorCompiler, buildSerializer: () => serializerCompiler } as unknown as NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>;

/** Builds the API and web host without listening, so tests drive it through `app.inject()`. */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const { config, database } = deps;
  const app = Fastify({
    logger: loggerOptions(config),
    trustProxy: trustedHops(config.trustProxy),
    // A maps service's place id in a path (POST site/ByGoogleId/{placeId}) may run past the default 100 characters.
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, maxParamLength: 400 },
    bodyLimit: jsonBodyLimit,
    // Two lines a request (Fastify's "incoming request" and "request completed") cost the cached public
    // calls over a quarter of their throughput, and wrote every chip number looked up to the log; the
    // reverse proxy keeps the access log. One line a request at debug level instead (below).
    logController: new LogController({ disableRequestLogging: true }),
    // A path that is no valid URL (a broken %-escape) is refused by the router, before any error handler.
    frameworkErrors: (_error, _request, reply) => (reply as FastifyReply).status(400).send(failure([messages.invalidRequest])),
    // Fastify's own answer to a request that reaches it while it stops is not in the product's words (below).
    return503OnClosing: false,
    // The routes' schemas are zod's, which checks and serialises them: given here rather than set after,
    // Fastify's own JSON Schema compilers (ajv, fast-json-stringify) are never loaded, a fifth of a second of a start.
    schemaController: { compilersFactory: zodCompilers },
  });
  // A request that arrives on a kept-alive connection once a stop (SIGTERM) has begun is not started:
  // 503 with Retry-After, as for a database out of reach, and the connection closed, so the client
  // tries again on a fresh one (another instance behind the load balancer, or this one restarted).
  let stopping = false;
  app.addHook('preClose', (done) => {
    stopping = true;
    done();
  });
  app.addHook('onRequest', (_request, reply, done) => {
    if (!stopping) return done();
    void answerUnavailable(reply.header('connection', 'close'));
  });
  // Only at debug level: otherwise every answer would build the line's fields for nothing.
  if (app.log.level === 'debug' || app.log.level === 'trace') {
    app.addHook('onResponse', (request, reply, done) => {
      request.log.debug({ method: request.method, url: request.url, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
      done();
    });
  }
  const { metricsToken, sentryDsn } = config.operations;
  app.decorate('metrics', metricsToken ? await createMetrics(database, app.log) : noMetrics);
  app.metrics.timeRequests(app);
  app.decorate('errorReports', await createErrorReports(sentryDsn));
  app.addHook('onClose', () => app.errorReports.close());
  useJsonBodyParser(app);

  const securityHeaders = securityHeaderSets({
    contentSecurityPolicy: {
      directives: {
        // MUI injects its styles at run time; the sign-in providers' scripts load only when configured.
        'style-src': ["'self'", "'unsafe-inline'"],
        'script-src': ["'self'", 'https://accounts.google.com', 'https://connect.facebook.net'],
        'frame-src': ["'self'", 'https://accounts.google.com', 'https://www.facebook.com'],
        // The maps' tiles may come from a tile server of the operator's without TLS.
        'img-src': ["'self'", 'data:', 'blob:', 'https:', ...tileOrigin(config.mapTiles.url)],
        'connect-src': ["'self'", 'https://accounts.google.com', 'https://graph.facebook.com'],
        // TLS is the reverse proxy's business; an http-only install must still load its own assets.
        'upgrade-insecure-requests': null,
      },
    },
  });
  await app.register(securityHeadersPlugin, securityHeaders);
  // A read carries no body to decompress: its route runs without the plugin's body hook (added before
  // the plugin's own onRoute, which reads the option).
  app.addHook('onRoute', (route) => {
    if (readsOnly(route)) route.decompress ??= false;
  });
  // Answers over 1 KB go compressed to clients that take it: brotli at a quality fast enough to run
  // on every answer (the built pages and scripts are compressed once, at build time, at the strongest).
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
  });
  await app.register(rateLimit, {
    global: false,
    allowList: (request) => config.rateLimitAllowList.includes(request.ip),
    errorResponseBuilder: () => new AppError(429, [messages.tooManyRequests]),
    // On a server every instance counts in one table, so a limit holds however many share the load; the
    // embedded database serves one process, whose memory counts faster.
    ...(database.kind === 'postgres' && { store: countedInDatabase({ db: database.counters, secret: deps.jwtSecret, log: app.log }) }),
  });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Pet registry API', version: '2.0' },
      servers: [{ url: '/' }],
      components: {
        // Keys to the open lookup (GET public/lookup/{chip}), issued by administrators.
        securitySchemes: {
          apiKeyBearer: { type: 'http', scheme: 'bearer', description: 'An API key issued by the registry' },
          apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'An API key issued by the registry' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(authPlugin, { database, jwtSecret: deps.jwtSecret });
  // A server runs writes side by side (and gives each a statement timeout); the embedded database one by one.
  if (database.kind === 'pglite') await app.register(writeAdmissionPlugin, { maxInFlight: EMBEDDED_WRITES_MAX, retryAfterS: 1 });
  // After the plugins above that put a hook of theirs first on a route: the pages' headers go on before them.
  await app.register(documentHeadersPlugin, securityHeaders);

  app.setErrorHandler(answerErrors);

  const { publicPages, utilities, listening } = await registerApi(app, deps);
  await app.register(operationsRoutes, { metrics: app.metrics, metricsToken, readiness: createReadiness({ database, listening: () => listening() && app.sessions.listening() }) });

  const webRoot = deps.webRoot ?? webDistFolder;
  const serveWeb = existsSync(webRoot);
  if (serveWeb) {
    await app.register(fastifyStatic, {
      root: webRoot,
      // The build writes .br and .gz copies beside each file (web/vite.config.ts).
      preCompressed: true,
      // One route per built file, found at start: a screen's address then goes straight to the page
      // below, not through a look on disk for a file of its name first (a twelfth of the speed).
      wildcard: false,
      // Scripts and styles, and the new ones a build adds while the portal runs, go through the route below.
      globIgnore: ['assets/**'],
      // Not fingerprinted as the assets are: asked for again each time, so a deploy reaches users at once.
      setHeaders: (res) => res.header('cache-control', 'no-cache'),
    });
    const assets = builtAssets(join(webRoot, 'assets'));
    // Sent as the build compressed them, or as they are: below 1 KB they are not worth compressing.
    app.get<{ Params: { name: string } }>('/assets/:name', { compress: false, schema: { hide: true } }, (request, reply) =>
      assets.send(request.params.name, request, reply) ? reply : reply.callNotFound(),
    );
  }
  const indexPage = serveWeb ? builtIndexPage(webRoot) : null;
  if (indexPage) {
    const given = deps.finderPages && Promise.resolve(deps.finderPages);
    await app.register(finderPageRoutes, {
      publicPages,
      settings: () => utilities.settings(),
      renderer: given ? () => given : builtFinderPageRenderer(webServerEntryOf(webRoot)),
      frame: builtIndexPage(webRoot, 'finder.html').template,
      indexPage,
      meter: app.metrics.cache,
    });
  }
  app.setNotFoundHandler((request, reply) => {
    // Unknown paths are screens of the single-page app; a missing API path or built asset is a real 404.
    const url = request.url.toLowerCase();
    const isAsset = url.startsWith('/assets/');
    const isPage = request.method === 'GET' && !url.startsWith('/api/') && !isAsset;
    if (isPage && indexPage?.send(request, reply)) return reply;
    return reply.status(404).send(failure([messages.notFound]));
  });

  return app;
}
