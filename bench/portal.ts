// The portal the benchmarks measure: built in this process on a fresh database (PGlite in a temporary
// folder, or DATABASE_URL), listening on a free port, with one signed-up owner.
// V8's flag and the held tick object as the portal's own start sets them (server/src/main.ts).
import '../server/src/v8Flags.js';
import '../server/src/keptTickObject.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createMailer } from '../server/src/adapters/mail/index.js';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import { openDatabase } from '../server/src/db/client.js';
import { seedStaticData } from '../server/src/db/seed.js';

export async function startBenchPortal(extraRoutes: (app: FastifyInstance) => void = () => {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'petreg-bench-'));
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir, RATE_LIMIT_ALLOWLIST: '127.0.0.1', DATABASE_URL: process.env.DATABASE_URL });
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.databaseUrl ? null : join(dataDir, 'db') });
  await database.migrate();
  await seedStaticData(database.db);
  const app = await buildApp({
    config,
    database,
    mailer: createMailer({ from: config.mailFrom, outboxDir: join(dataDir, 'mail') }),
    jwtSecret: 'bench-secret-bench-secret-bench-secret',
  });
  extraRoutes(app);
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };

  const owner = { email: `bench${Date.now()}@example.com`, password: 'Bench#Pass1' };
  const signUp = await app.inject({
    method: 'POST',
    url: '/api/v2/Users/signup',
    payload: { ...owner, firstName: 'Bench', lastName: 'Mark', phoneNumber: '(415) 555-2671' },
  });
  const token: string = signUp.json().result.token;

  return {
    address,
    port,
    databaseKind: database.kind,
    owner,
    token,
    async close() {
      await app.close();
      await database.close();
    },
  };
}
