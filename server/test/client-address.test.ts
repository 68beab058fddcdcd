import { messages } from '@petreg/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniqueEmail, type TestContext } from './helpers.js';

/**
 * Behind a proxy the per-address limits count the address the trusted proxy saw. A client writes
 * what it likes at the left of X-Forwarded-For; a new left-most address on each try must not reset its count.
 */
describe.each([
  ['a hop count', '1'],
  ['the proxies’ addresses', '10.0.0.0/8, 2001:db8::/32'],
])('client address with TRUST_PROXY as %s', (_name, trustProxy) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ env: { TRUST_PROXY: trustProxy } });
  });
  afterAll(() => ctx.close());

  const loginThroughProxy = (forwardedFor: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/v2/Users/login',
      payload: { email: uniqueEmail(), password: 'Wrong#123' },
      headers: { 'x-forwarded-for': forwardedFor },
      remoteAddress: '10.0.0.2',
    });

  it('holds a client forging the left-most X-Forwarded-For address to the login limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await loginThroughProxy(`198.51.100.${i}, 203.0.113.7`)).statusCode);
    expect(statuses.every((s) => s === 400)).toBe(true);
    const blocked = await loginThroughProxy('192.0.2.99, 203.0.113.7');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().errors).toEqual([messages.tooManyRequests]);
  });

  it('counts each client the proxy saw apart', async () => {
    expect((await loginThroughProxy('203.0.113.8')).statusCode).toBe(400);
  });
});
