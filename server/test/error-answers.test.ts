import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { answerErrors } from '../src/errorHandler.js';

/** A bare app answering with the portal's error handler, its log lines kept. */
async function appThrowing(error: Error) {
  const lines: { msg: string }[] = [];
  const stream = new Writable({ write: (chunk: Buffer, _encoding, done) => done(void lines.push(JSON.parse(chunk.toString()))) });
  const app = Fastify({ logger: { level: 'error', stream } });
  app.decorate('errorReports', { request: () => {} } as never);
  app.setErrorHandler(answerErrors);
  app.get('/fails', async () => {
    throw error;
  });
  const answer = await app.inject({ method: 'GET', url: '/fails' });
  await app.close();
  return { status: answer.statusCode, logged: lines.map((line) => line.msg) };
}

describe('an unexpected failure', () => {
  it('names DATABASE_POOL_MODE when the server lost the prepared statement a pooler in transaction mode moved', async () => {
    const lost = Object.assign(new Error('prepared statement "pets_by_id" does not exist'), { code: '26000' });
    expect(await appThrowing(new Error('Failed query: select 1', { cause: lost }))).toEqual({
      status: 500,
      logged: ['request failed: DATABASE_URL reaches the server through a pooler in transaction mode that keeps no prepared statements; set DATABASE_POOL_MODE=transaction'],
    });
    const taken = Object.assign(new Error('prepared statement "pets_by_id" already exists'), { code: '42P05' });
    expect((await appThrowing(taken)).logged[0]).toMatch(/set DATABASE_POOL_MODE=transaction$/);
    expect(await appThrowing(new Error('something else'))).toEqual({ status: 500, logged: ['request failed'] });
  });
});
