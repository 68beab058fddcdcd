import { eq } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Subscription } from '../src/db/client.js';
import { userSessions, users } from '../src/db/schema.js';
import { authPlugin, sessionCheckChannel } from '../src/plugins/auth.js';
import { createTestApp, signUpOwner, type TestContext } from './helpers.js';

let ctx: TestContext;
/** The session a token names. */
const sessionOf = (token: string) => decodeJwt(token).sid as string;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

/**
 * The session checks each instance keeps, on the real database with a listening connection the test
 * plays: notifications it delivers by hand, and whether it is live. Writes are made straight to the
 * database, as another instance's would be, so only a notification tells this one.
 */
describe('checked sessions', () => {
  let app: FastifyInstance;
  let live: boolean;
  let notify: (payload: string | null) => void;
  const channels: string[] = [];

  async function startWithListener(isLive: boolean) {
    live = isLive;
    app = Fastify();
    await app.register(authPlugin, {
      database: {
        db: ctx.database.db,
        async listen(channel, onNotify): Promise<Subscription> {
          channels.push(channel);
          notify = onNotify;
          return { live: () => live, unanswered: () => false, caughtUp: () => undefined, close: async () => {} };
        },
      },
      jwtSecret: 'session-checks-secret-session-checks!',
    });
    await app.ready();
  }
  afterEach(() => app.close());

  /** A new owner's open session, checked once so that it is remembered where that is allowed. */
  async function checkedSession() {
    const { user } = await signUpOwner(ctx.app);
    const sessionId = sessionOf(await app.sessions.open(user.id, false));
    expect(await app.sessions.check(sessionId, user.id)).not.toBeNull();
    return { userId: user.id, sessionId };
  }
  const revokeElsewhere = (sessionId: string) => ctx.database.db.update(userSessions).set({ revokedAt: new Date() }).where(eq(userSessions.id, sessionId));

  it('listen on the channel the triggers notify', async () => {
    await startWithListener(true);
    expect(channels).toEqual([sessionCheckChannel]);
  });

  it("are dropped when the database names the account, and all of them on '' or a lost connection", async () => {
    await startWithListener(true);
    const first = await checkedSession();
    await revokeElsewhere(first.sessionId);
    // Remembered until told: the write was another instance's.
    expect(await app.sessions.check(first.sessionId, first.userId)).not.toBeNull();
    notify(String(first.userId));
    expect(await app.sessions.check(first.sessionId, first.userId)).toBeNull();

    for (const everything of ['', null]) {
      const next = await checkedSession();
      await ctx.database.db.update(users).set({ isActive: false }).where(eq(users.id, next.userId));
      expect(await app.sessions.check(next.sessionId, next.userId)).not.toBeNull();
      notify(everything);
      expect(await app.sessions.check(next.sessionId, next.userId)).toBeNull();
    }
  });

  it('are not remembered while the listening connection is down: every check asks the database', async () => {
    await startWithListener(false);
    const { userId, sessionId } = await checkedSession();
    await revokeElsewhere(sessionId);
    expect(await app.sessions.check(sessionId, userId)).toBeNull();
  });

  it('end at once on the instance that ends them, and only the sessions named', async () => {
    await startWithListener(true);
    const kept = await checkedSession();
    const other = sessionOf(await app.sessions.open(kept.userId, false));
    expect(await app.sessions.check(other, kept.userId)).not.toBeNull();
    await app.sessions.revokeAllFor(kept.userId, { except: kept.sessionId });
    expect(await app.sessions.check(other, kept.userId)).toBeNull();
    expect(await app.sessions.check(kept.sessionId, kept.userId)).not.toBeNull();
    await app.sessions.revoke(kept.sessionId);
    expect(await app.sessions.check(kept.sessionId, kept.userId)).toBeNull();
  });
});

/** The triggers of 0028 on the database itself: a write made there, not through the sessions, reaches the checks. */
describe('a session ended or an account changed straight in the database', () => {
  const checked = async () => {
    const { user, token } = await signUpOwner(ctx.app);
    const sessionId = sessionOf(token);
    expect(await ctx.app.sessions.check(sessionId, user.id)).not.toBeNull();
    return { userId: user.id, sessionId };
  };

  it('drops the check of a session revoked there', async () => {
    const { userId, sessionId } = await checked();
    await ctx.database.db.update(userSessions).set({ revokedAt: new Date() }).where(eq(userSessions.id, sessionId));
    expect(await ctx.app.sessions.check(sessionId, userId)).toBeNull();
  });

  it('drops the checks of an account switched off there, and reads its roles again when they change', async () => {
    const { userId, sessionId } = await checked();
    await ctx.database.db.update(users).set({ roles: ['customer', 'admin'] }).where(eq(users.id, userId));
    expect((await ctx.app.sessions.check(sessionId, userId))!.roles).toContain('admin');
    await ctx.database.db.update(users).set({ isActive: false }).where(eq(users.id, userId));
    expect(await ctx.app.sessions.check(sessionId, userId)).toBeNull();
  });
});
