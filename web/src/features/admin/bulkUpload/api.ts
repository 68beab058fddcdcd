import type { DownloadFile, PetUploadResult } from '@petreg/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../app/api';

/** POST admin/bulk-pet-upload: the file and the shelter's e-mail, as multipart form fields. */
export function useBulkPetUpload() {
  return useMutation({
    mutationFn: ({ file, email }: { file: File; email: string }) => {
      const form = new FormData();
      form.append('file', file);
      form.append('email', email);
      return api.upload<PetUploadResult>('admin/bulk-pet-upload', form);
    },
  });
}

/** GET admin/bulk-pet-upload/allowed-values: the species, sexes, chip brands and states a file may name, as a CSV file. */
export function usePetUploadAllowedValues() {
  return useMutation({ mutationFn: () => api.get<DownloadFile>('admin/bulk-pet-upload/allowed-values') });
}
