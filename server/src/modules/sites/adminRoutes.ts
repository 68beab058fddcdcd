import multipart from '@fastify/multipart';
import { adminSiteSchema, adminSitesQuery, messages, roleGroups, siteIdParams, siteImportLimits } from '@petreg/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { readUpload } from '../../csvFiles.js';
import { badRequest } from '../../errors.js';
import { answer } from '../../http.js';
import { sessionOf } from '../../plugins/auth.js';
import type { SiteDirectory } from './directory.js';
import type { SiteImport } from './import.js';

/** The administrators' directory of sites (admin-sites): search, add, edit, CSV import, samples off. */
export const adminSiteRoutes: FastifyPluginAsyncZod<{ directory: SiteDirectory; siteImport: SiteImport }> = async (
  app,
  { directory, siteImport },
) => {
  // Multipart bodies are read by these routes only: one file, no larger than an import takes.
  await app.register(multipart, { limits: { fileSize: siteImportLimits.maxFileBytes, files: 1, fields: 10, parts: 11 } });
  const tags = ['Sites (administrators)'];
  const config = { auth: roleGroups.admin };

  /** The uploaded sites file: a sites file is small, read whole. */
  async function uploadedFile(request: FastifyRequest): Promise<Buffer> {
    const { file } = await readUpload(request, { fileRequired: messages.csvFileRequired, tooLarge: messages.csvTooLarge, invalidRequest: messages.invalidRequest });
    if (!file) throw badRequest(messages.csvFileRequired);
    return file;
  }

  app.get('/admin/sites', { schema: { tags, querystring: adminSitesQuery }, config }, async (request) =>
    answer(await directory.list(request.query)),
  );

  app.post('/admin/sites', { schema: { tags, body: adminSiteSchema }, config }, async (request) =>
    answer(await directory.create(sessionOf(request), request.body)),
  );

  app.put('/admin/sites/:id', { schema: { tags, params: siteIdParams, body: adminSiteSchema }, config }, async (request) =>
    answer(await directory.update(sessionOf(request), request.params.id, request.body)),
  );

  app.post(
    '/admin/sites/import',
    {
      schema: { tags, consumes: ['multipart/form-data'], description: 'A CSV file (columns: siteCsvColumns) in a multipart field; answers the per-row result file.' },
      config,
    },
    async (request) => answer(await siteImport.run(sessionOf(request), await uploadedFile(request))),
  );

  app.post('/admin/sites/remove-samples', { schema: { tags }, config }, async (request) =>
    answer(await directory.removeSamples(sessionOf(request))),
  );
};
