import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client.js';
import { seedStaticData } from '../src/db/seed.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's migrated, seeded database: a PGlite dump in a file, or a database on the PostgreSQL server. */
    seededDatabase: { snapshotFile: string } | { template: string };
  }
}

export const ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/test';

async function adminQuery(query: string) {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(query);
  } finally {
    await admin.end();
  }
}

/**
 * Migrates and seeds one database per test run, which every API test file then copies: a fresh
 * database costs each file initdb and the ZIP table's GiST index (seconds on PGlite) otherwise.
 */
export default async function setup(project: TestProject) {
  if (project.config.env.TEST_DB === 'postgres') {
    const template = `petreg_template_${randomUUID().replace(/-/g, '')}`;
    await adminQuery(`create database ${template}`);
    const database = await openDatabase({ url: ADMIN_URL.replace(/\/test$/, `/${template}`), dataDir: null });
    await database.migrate();
    await seedStaticData(database.db);
    await database.close();
    project.provide('seededDatabase', { template });
    return () => adminQuery(`drop database if exists ${template}`);
  }
  const database = await openDatabase({ dataDir: null });
  await database.migrate();
  await seedStaticData(database.db);
  const dir = mkdtempSync(join(tmpdir(), 'petreg-snapshot-'));
  const file = join(dir, 'pglite.tar');
  writeFileSync(file, Buffer.from(await (await database.dump!()).arrayBuffer()));
  await database.close();
  project.provide('seededDatabase', { snapshotFile: file });
  return () => rmSync(dir, { recursive: true, force: true });
}
