import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { constants as zlib } from 'node:zlib';
import compress from '@fastify/compress';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import { API_BASE, failure, messages, type FinderPageRenderer } from '@petreg/contract';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { Mailer } from './adapters/mail/index.js';
import type { PaymentProvider } from './adapters/payments/index.js';
import { createLocalPayments } from './adapters/payments/local.js';
import { createStripePayments } from './adapters/payments/stripe.js';
import { createGoogleMapTiles } from './adapters/places/googleTiles.js';
import { createPlaces, type Places } from './adapters/places/index.js';
import { createDiskStorage, type FileStorage } from './adapters/storage/index.js';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/client.js';
import { isDatabaseUnavailable } from './db/errors.js';
import { AppError, loggable } from './errors.js';
import { jsonBodyLimit, withImageBodyLimit } from './http.js';
import { adminRecordRoutes } from './modules/admin/recordRoutes.js';
import { createAdminRecords } from './modules/admin/records.js';
import { createProtectedRecords } from './modules/admin/protectedRecord.js';
import { protectedRecordRoutes } from './modules/admin/protectedRecordRoutes.js';
import { createPetRemoval } from './modules/admin/removal.js';
import { createPetTransfer } from './modules/admin/transfer.js';
import { createTransferHolds } from './modules/admin/transferHold.js';
import { createTransferAcceptance } from './modules/pets/transferAcceptance.js';
import { petTransferRoutes } from './modules/pets/transferRoutes.js';
import { createOwnerTransfers } from './modules/pets/transfers.js';
import { createPetSupportView } from './modules/admin/petSupport.js';
import { createBulkPetUpload } from './modules/admin/bulkUpload.js';
import { bulkUploadRoutes } from './modules/admin/bulkUploadRoutes.js';
import { createAdminSearch } from './modules/admin/search.js';
import { adminSearchRoutes } from './modules/admin/searchRoutes.js';
import { alertRoutes } from './modules/alerts/routes.js';
import { createAlertService } from './modules/alerts/service.js';
import { contactRoutes } from './modules/contacts/routes.js';
import { createFoundInbox } from './modules/foundReports/inbox.js';
import { foundInboxRoutes } from './modules/foundReports/inboxRoutes.js';
import { createPhoneSharing } from './modules/foundReports/sharePhone.js';
import { createOwnerCheck } from './modules/contacts/ownerCheck.js';
import { createContactService } from './modules/contacts/service.js';
import { paymentRoutes } from './modules/payments/routes.js';
import { createPaymentService, type PaymentService } from './modules/payments/service.js';
import { petRoutes } from './modules/pets/routes.js';
import { createPetCards } from './modules/pets/card.js';
import { createAccountClosing } from './modules/ownerData/closeAccount.js';
import { createAccountExport } from './modules/ownerData/export.js';
import { ownerDataRoutes } from './modules/ownerData/routes.js';
import { createPetService } from './modules/pets/service.js';
import { publicRoutes } from './modules/public/routes.js';
import { createApiKeyGate } from './modules/public/apiKeys.js';
import { createOpenLookup } from './modules/public/openLookup.js';
import { openLookupRoutes } from './modules/public/openLookupRoutes.js';
import { createApiKeyAdministration } from './modules/admin/apiKeys.js';
import { apiKeyRoutes } from './modules/admin/apiKeyRoutes.js';
import { foundReportRoutes } from './modules/foundReports/routes.js';
import { createFoundReports } from './modules/foundReports/report.js';
import { adminSiteRoutes } from './modules/sites/adminRoutes.js';
import { createMailLog } from './modules/admin/mailLog.js';
import { mailLogRoutes } from './modules/admin/mailLogRoutes.js';
import { alertMailSettingsOf } from './modules/alerts/messages.js';
import { createSiteDirectory } from './modules/sites/directory.js';
import { createSiteImport } from './modules/sites/import.js';
import { createPublicCaches } from './modules/public/caches.js';
import { createPublicService } from './modules/public/service.js';
import { siteRoutes } from './modules/sites/routes.js';
import { createSiteService } from './modules/sites/service.js';
import { userRoutes } from './modules/users/routes.js';
import { createUserService } from './modules/users/service.js';
import { createSocialVerifier } from './modules/users/social.js';
import { utilityRoutes } from './modules/utilities/routes.js';
import { createUtilityService } from './modules/utilities/service.js';
import { createTextReplies } from './modules/texts/replies.js';
import { smsWebhookRoutes } from './modules/texts/webhookRoutes.js';
import { builtIndexPage } from './indexPage.js';
import { builtFinderPageRenderer, finderPageRoutes } from './modules/public/finderPages.js';
import { webDistFolder, webServerEntryOf } from './paths.js';
import { authPlugin } from './plugins/auth.js';
import { securityHeadersPlugin } from './plugins/securityHeaders.js';
import { useJsonBodyParser } from './plugins/jsonBody.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** For the worker's daily sweep, which runs beside the HTTP routes. */
    payments: PaymentService;
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

/** Seconds a client is asked to wait when the database is out of reach (a restart takes a few). */
const RETRY_AFTER_S = 5;

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
  });
  app.addHook('onResponse', (request, reply, done) => {
    request.log.debug({ method: request.method, url: request.url, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
    done();
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  useJsonBodyParser(app);

  await app.register(securityHeadersPlugin, {
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
  await app.register(authPlugin, { db: database.db, jwtSecret: deps.jwtSecret });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) return reply.status(error.statusCode).send(failure(error.errors));
    if (hasZodFastifySchemaValidationErrors(error)) {
      // One message per field, the first the schema reports, in the order the form shows them.
      const byField = new Map<string, string>();
      for (const issue of error.validation) {
        const field = issue.instancePath ?? '';
        if (!byField.has(field)) byField.set(field, issue.message ?? messages.genericError);
      }
      return reply.status(400).send(failure([...byField.values()]));
    }
    const status = error.statusCode ?? 500;
    // Fastify's own refusals (body too large, unreadable JSON, unknown content type) in the product's words.
    if (status === 413) {
      const takesImage = (request.routeOptions.bodyLimit ?? 0) >= withImageBodyLimit;
      return reply.status(413).send(failure([takesImage ? messages.imageTooLarge : messages.requestTooLarge]));
    }
    if (status < 500) return reply.status(status).send(failure([status === 404 ? messages.notFound : messages.invalidRequest]));
    // A restart, a failover or a frozen link: the same request may succeed in a moment.
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: loggable(error) }, 'the database is out of reach');
      return reply.status(503).header('retry-after', String(RETRY_AFTER_S)).send(failure([messages.serviceUnavailable]));
    }
    request.log.error({ err: loggable(error) }, 'request failed');
    return reply.status(500).send(failure([messages.genericError]));
  });

  database.onConnectionError((error) =>
    app.log.warn({ err: loggable(error) }, 'a pooled database connection was lost: the next statement connects anew'),
  );
  const storage = deps.storage ?? createDiskStorage(join(config.dataDir, 'uploads'));
  const users = createUserService({
    db: database.db,
    mailer: deps.mailer,
    sessions: app.sessions,
    storage,
    publicUrl: config.publicUrl,
    secret: deps.jwtSecret,
    registryName: config.registry.name,
  });
  const utilities = createUtilityService({ database, config });
  const pets = createPetService({ db: database.db, storage });
  const contacts = createContactService({ db: database.db, publicUrl: config.publicUrl, secret: deps.jwtSecret, registryName: config.registry.name });
  const caches = await createPublicCaches(database, app.log);
  app.addHook('onClose', () => caches.close());
  const publicPages = createPublicService({ db: database.db, caches });
  const apiKeyGate = createApiKeyGate({ db: database.db, log: app.log });
  app.addHook('onClose', () => apiKeyGate.close());
  const sites = createSiteService({ db: database.db, places: deps.places ?? createPlaces(config, database.db, app.log) });
  const provider = deps.payments ?? (config.stripe ? createStripePayments(config.stripe) : createLocalPayments(config.publicUrl));
  const payments = createPaymentService({
    db: database.db,
    provider,
    accounts: users,
    publicUrl: config.publicUrl,
    log: app.log,
    testPaymentsRefused: config.testPayments === 'refused',
  });
  app.decorate('payments', payments);
  const alerts = createAlertService({ db: database.db, payments, publicUrl: config.publicUrl, secret: deps.jwtSecret });
  await app.register(
    async (api) => {
      await api.register(userRoutes, { users, social: createSocialVerifier(config) });
      await api.register(utilityRoutes, { utilities });
      await api.register(petTransferRoutes, {
        transfers: createOwnerTransfers({ db: database.db, publicUrl: config.publicUrl }),
        acceptance: createTransferAcceptance({ db: database.db, accounts: users, payments }),
      });
      await api.register(petRoutes, {
        pets,
        cards: createPetCards({ db: database.db, storage, publicUrl: config.publicUrl, registry: config.registry }),
      });
      await api.register(contactRoutes, {
        contacts,
        ownerCheck: createOwnerCheck({ db: database.db, publicUrl: config.publicUrl, secret: deps.jwtSecret, forget: users.forget }),
      });
      await api.register(publicRoutes, { publicPages });
      await api.register(openLookupRoutes, {
        openLookup: createOpenLookup({ publicPages, registry: config.registry, publicUrl: config.publicUrl }),
        keys: apiKeyGate,
        rateLimitAllowList: config.rateLimitAllowList,
      });
      await api.register(foundReportRoutes, { foundReports: createFoundReports({ db: database.db, storage, publicUrl: config.publicUrl, publicPages, log: app.log }) });
      await api.register(siteRoutes, { sites, tiles: config.googleMapTiles && createGoogleMapTiles(config.googleMapTiles, app.log) });
      await api.register(paymentRoutes, { payments, localCheckout: provider.name === 'local' });
      await api.register(alertRoutes, { alerts });
      await api.register(ownerDataRoutes, {
        accountExport: createAccountExport({ db: database.db, registryName: config.registry.name }),
        closing: createAccountClosing({ db: database.db, secret: deps.jwtSecret, sessions: app.sessions, storage, payments, forget: users.forget }),
      });
      const inbox = createFoundInbox({ db: database.db, storage });
      await api.register(foundInboxRoutes, { inbox, sharing: createPhoneSharing({ db: database.db, inbox }) });
      await api.register(adminSiteRoutes, {
        directory: createSiteDirectory({ db: database.db }),
        siteImport: createSiteImport({ db: database.db }),
      });
      const records = createAdminRecords({ db: database.db, petService: pets, accounts: users, sessions: app.sessions });
      await api.register(adminRecordRoutes, {
        records,
        support: createPetSupportView({ db: database.db }),
        transfers: createPetTransfer({ db: database.db, accounts: users, payments, publicUrl: config.publicUrl }),
        holds: createTransferHolds({ db: database.db }),
        removals: createPetRemoval({ db: database.db, accounts: users, payments }),
      });
      await api.register(protectedRecordRoutes, { protectedRecords: createProtectedRecords({ db: database.db, accounts: users, records }) });
      await api.register(bulkUploadRoutes, { bulkUpload: createBulkPetUpload({ db: database.db, publicUrl: config.publicUrl, log: app.log }), db: database.db });
      await api.register(mailLogRoutes, { mailLog: createMailLog({ db: database.db, alertMail: alertMailSettingsOf(config, deps.jwtSecret), forget: users.forget }) });
      await api.register(adminSearchRoutes, { search: createAdminSearch({ db: database.db }) });
      await api.register(apiKeyRoutes, { apiKeys: createApiKeyAdministration({ db: database.db, keys: apiKeyGate }) });
      // Twilio's delivery reports and replies; with the embedded texter nothing calls them.
      if (config.twilio) {
        await api.register(smsWebhookRoutes, { replies: createTextReplies(database.db), authToken: config.twilio.authToken, publicUrl: config.publicUrl });
      }
      api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    },
    { prefix: API_BASE },
  );

  const webRoot = deps.webRoot ?? webDistFolder;
  const serveWeb = existsSync(webRoot);
  if (serveWeb) {
    await app.register(fastifyStatic, {
      root: webRoot,
      // The build writes .br and .gz copies beside each file (web/vite.config.ts).
      preCompressed: true,
      // One route per built file, found at start: a screen's address then goes straight to the page
      // below, not through a look on disk for a file of its name first (a twelfth of the speed). A
      // build made while the portal runs is served by the not-found handler below.
      wildcard: false,
      setHeaders: (res, path) => {
        // Vite fingerprints assets; index.html must be asked for again so a deploy reaches users at once.
        res.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
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
    });
  }
  app.setNotFoundHandler((request, reply) => {
    // Unknown paths are screens of the single-page app; a missing API path or built asset is a real 404.
    const url = request.url.toLowerCase();
    const isAsset = url.startsWith('/assets/');
    // A build made while the portal runs: its new files (named by the build, no other characters) have no route yet.
    const builtFile = /^\/assets\/\w[\w.-]*$/.exec(request.url.split('?')[0]!)?.[0];
    if (serveWeb && builtFile && (request.method === 'GET' || request.method === 'HEAD') && existsSync(join(webRoot, builtFile))) {
      return reply.sendFile(builtFile);
    }
    const isPage = request.method === 'GET' && !url.startsWith('/api/') && !isAsset;
    if (isPage && indexPage?.send(request, reply)) return reply;
    return reply.status(404).send(failure([messages.notFound]));
  });

  return app;
}
