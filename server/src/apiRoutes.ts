import { API_BASE } from '@petreg/contract';
import type { FastifyInstance } from 'fastify';
import { createLocalPayments } from './adapters/payments/local.js';
import { createGoogleMapTiles } from './adapters/places/googleTiles.js';
import { createPlaces } from './adapters/places/index.js';
import { createStorage } from './adapters/storage/configured.js';
import { deleteDiscardedFiles } from './modules/ownerData/discardedFiles.js';
import { loggable } from './errors.js';
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
import { createPaymentService } from './modules/payments/service.js';
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
import { keepUserObjects } from './modules/users/accounts.js';
import { userRoutes } from './modules/users/routes.js';
import { createUserService } from './modules/users/service.js';
import { createSocialVerifier } from './modules/users/social.js';
import { utilityRoutes } from './modules/utilities/routes.js';
import { createUtilityService } from './modules/utilities/service.js';
import { createTextReplies } from './modules/texts/replies.js';
import { smsWebhookRoutes } from './modules/texts/webhookRoutes.js';
import type { AppDependencies } from './app.js';

/**
 * The services of every feature, built over the app's dependencies, and the API's routes under
 * API_BASE. Answers what the web pages served beside the API read too.
 */
export async function registerApi(app: FastifyInstance, deps: AppDependencies) {
  const { config, database } = deps;
  database.onConnectionError((error) =>
    app.log.warn({ err: loggable(error) }, 'a pooled database connection was lost: the next statement connects anew'),
  );
  const storage = deps.storage ?? (await createStorage(config));
  app.decorate('deleteDiscardedFiles', () => deleteDiscardedFiles(database.db, storage));
  const userObjects = await keepUserObjects(database, app.log);
  app.addHook('onClose', () => userObjects.subscription!.close());
  const users = createUserService({
    db: database.db,
    mailer: deps.mailer,
    sessions: app.sessions,
    userObjects,
    storage,
    publicUrl: config.publicUrl,
    secret: deps.jwtSecret,
    registryName: config.registry.name,
  });
  const utilities = createUtilityService({ database, config });
  const pets = createPetService({ db: database.db, storage });
  const contacts = createContactService({ db: database.db, publicUrl: config.publicUrl, secret: deps.jwtSecret, registryName: config.registry.name });
  const caches = await createPublicCaches(database, app.log, app.metrics.cache);
  app.addHook('onClose', () => caches.close());
  const publicPages = createPublicService({ db: database.db, caches });
  const apiKeyGate = await createApiKeyGate({ database, log: app.log });
  app.addHook('onClose', () => apiKeyGate.close());
  const sites = createSiteService({ db: database.db, places: deps.places ?? createPlaces(config, database.db, app.log) });
  // Stripe's SDK loads only where it is configured: a tenth of a second of every start otherwise.
  const provider = deps.payments ?? (config.stripe ? (await import('./adapters/payments/stripe.js')).createStripePayments(config.stripe) : createLocalPayments(config.publicUrl));
  const payments = createPaymentService({
    db: database.db,
    provider,
    accounts: users,
    publicUrl: config.publicUrl,
    log: app.log,
    testPaymentsRefused: config.testPayments === 'refused',
    onFanOut: app.metrics.alertFanOut,
  });
  app.decorate('payments', payments);
  const alerts = createAlertService({ db: database.db, payments, publicUrl: config.publicUrl, secret: deps.jwtSecret, onFanOut: app.metrics.alertFanOut });
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
      await api.register(mailLogRoutes, { mailLog: createMailLog({ database, alertMail: alertMailSettingsOf(config, deps.jwtSecret), forget: users.forget }) });
      await api.register(adminSearchRoutes, { search: createAdminSearch(database) });
      await api.register(apiKeyRoutes, { apiKeys: createApiKeyAdministration({ db: database.db, keys: apiKeyGate }) });
      // Twilio's delivery reports and replies; with the embedded texter nothing calls them.
      if (config.twilio) {
        await api.register(smsWebhookRoutes, { replies: createTextReplies(database.db), authToken: config.twilio.authToken, publicUrl: config.publicUrl });
      }
      api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    },
    { prefix: API_BASE },
  );
  return { publicPages, utilities, listening: () => caches.listening() && apiKeyGate.listening() && userObjects.subscription!.live() };
}
