import { messages } from '@petreg/contract';
import type { Database } from '../../db/client.js';
import { notFound } from '../../errors.js';
import { exportOwner, exportSections } from './exportSections.js';

/** GET Users/export: everything the registry holds about the signed-in account, section by section. */
export function createAccountExport(deps: { db: Database; registryName: string }) {
  const { db } = deps;
  return {
    async build(userId: number, at: Date): Promise<Record<string, unknown>> {
      const owner = await exportOwner(db, userId);
      if (!owner) throw notFound(messages.notFound);
      const file: Record<string, unknown> = { registry: deps.registryName, exportedAt: at.toISOString(), accountId: userId };
      for (const section of exportSections) file[section.key] = await section.build(db, owner);
      return file;
    },
  };
}
