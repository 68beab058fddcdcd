import multipart from '@fastify/multipart';
import { messages, petUploadFormSchema, petUploadLimits, roleGroups } from '@petreg/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { readUpload } from '../../csvFiles.js';
import type { Database } from '../../db/client.js';
import { badRequest } from '../../errors.js';
import { answer } from '../../http.js';
import { sessionOf } from '../../plugins/auth.js';
import type { BulkPetUpload } from './bulkUpload.js';
import { petUploadAllowedValues } from './bulkUploadAllowedValues.js';

/** POST admin/bulk-pet-upload (spec 7): a shelter's CSV of pets and the shelter's e-mail; and the values its cells may hold. */
export const bulkUploadRoutes: FastifyPluginAsyncZod<{ bulkUpload: BulkPetUpload; db: Database }> = async (app, { bulkUpload, db }) => {
  const tags = ['Pets (administrators)'];
  const config = { auth: roleGroups.admin };

  app.get(
    '/admin/bulk-pet-upload/allowed-values',
    { schema: { tags, description: 'A CSV file of the species, sexes, chip brands and states a pets file may name.' }, config },
    async () => answer(await petUploadAllowedValues(db)),
  );

  // Multipart bodies are read by this route only: one file, no larger than an upload takes, and the e-mail.
  await app.register(multipart, { limits: { fileSize: petUploadLimits.maxFileBytes, files: 1, fields: 10, parts: 11 } });

  app.post(
    '/admin/bulk-pet-upload',
    {
      schema: {
        tags,
        consumes: ['multipart/form-data'],
        description: 'Multipart: `file`, a CSV (columns: petUploadColumns), and `email`, the shelter\'s; answers the per-row result file.',
      },
      config,
    },
    async (request) => {
      const upload = await readUpload(request, {
        fileRequired: messages.bulkUploadFileRequired,
        tooLarge: messages.petCsvTooLarge,
        invalidRequest: messages.invalidRequest,
      });
      if (!upload.file) throw badRequest(messages.bulkUploadFileRequired);
      const form = petUploadFormSchema.safeParse(upload.fields);
      if (!form.success) throw badRequest(messages.bulkUploadEmailInvalid);
      return answer(await bulkUpload.run(sessionOf(request), { file: upload.file, fileName: upload.fileName, shelterEmail: form.data.email }));
    },
  );
};
