import { Socket } from 'node:net';
import { defineConfig } from 'vitest/config';

/** True when a PostgreSQL server answers on 127.0.0.1:5432; the API tests then run against it too. */
function postgresAnswers(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (up: boolean) => {
      socket.destroy();
      resolve(up);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(5432, '127.0.0.1', () => done(true));
  });
}

export default defineConfig(async () => {
  const shared = { pool: 'forks' as const, testTimeout: 30_000, hookTimeout: 60_000 };
  const api = (name: string, db: string) => ({
    test: { ...shared, name, include: ['server/test/**/*.test.ts'], env: { TEST_DB: db }, globalSetup: ['server/test/globalSetup.ts'] },
  });
  return {
    test: {
      projects: [
        { test: { ...shared, name: 'unit', include: ['packages/*/src/**/*.test.ts'] } },
        api('api:pglite', 'pglite'),
        ...((await postgresAnswers()) ? [api('api:postgres', 'postgres')] : []),
      ],
    },
  };
});
