import multipart from '@fastify/multipart';
import { messages, petUploadFormSchema, petUploadLimits, roleGroups } from '@petreg/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { readUpload } from '../../csvFiles.js';
import { badRequest } from '../../errors.js';
import { answer } from '../../http.js';
import { sessionOf } from '../../plugins/auth.js';
import type { BulkPetUpload } from './bulkUpload.js';

/** POST admin/bulk-pet-upload (spec 7): a shelter's CSV of pets and the shelter's e-mail. */
export const bulkUploadRoutes: FastifyPluginAsyncZod<{ bulkUpload: BulkPetUpload }> = async (app, { bulkUpload }) => {
  // Multipart bodies are read by this route only: one file, no larger than an upload takes, and the e-mail.
  await app.register(multipart, { limits: { fileSize: petUploadLimits.maxFileBytes, files: 1, fields: 10, parts: 11 } });

  app.post(
    '/admin/bulk-pet-upload',
    {
      schema: {
        tags: ['Pets (administrators)'],
        consumes: ['multipart/form-data'],
        description: 'Multipart: `file`, a CSV (columns: petUploadColumns), and `email`, the shelter\'s; answers the per-row result file.',
      },
      config: { auth: roleGroups.admin },
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
