import { randomUUID } from 'node:crypto';
import { messages, type Role } from '@petreg/contract';
import { and, eq, gt, isNull, ne, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { jwtVerify, SignJWT } from 'jose';
import type { DatabaseHandle } from '../db/client.js';
import { users, userSessions } from '../db/schema.js';
import { forbidden, loggable, unauthorized } from '../errors.js';
import { NotifiedCache } from '../notifiedCache.js';
import { RecentCache } from '../recent.js';

/** Who may call a route: anyone signed in, or only the listed roles. */
export type AuthRequirement = 'signedIn' | readonly Role[];

export interface Session {
  userId: number;
  sessionId: string;
  roles: Role[];
  expiresAt: Date;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthRequirement;
  }
  interface FastifyRequest {
    session: Session | null;
  }
  interface FastifyInstance {
    sessions: SessionService;
  }
}

const REMEMBERED_SESSION_DAYS = 30;
const SESSION_HOURS = 24;
/**
 * The channel the triggers of migration 0028_session_notify notify at commit: the account whose
 * sessions were ended or whose status or roles changed ('' for all).
 */
export const sessionCheckChannel = 'session_check';
/**
 * How long a checked session is trusted without asking the database again. Every instance drops a check
 * when the database notifies a write that ends the session, so this only bounds a change no trigger sees.
 */
const SESSION_CHECK_TTL_MS = 60_000;
/**
 * How long a token's checked signature is remembered (never past the token's own expiry): as long as
 * its session check, since a signature stays good for the token's life. Its session is checked on
 * every request all the same (ended, expired, switched off), and a signature's check takes about 70 µs
 * of CPU (jose, Web Crypto), as much as the rest of a current-user call: a session asking every few
 * seconds paid it on most calls.
 */
const VERIFIED_TOKEN_TTL_MS = SESSION_CHECK_TTL_MS;

export interface SessionService {
  /** Opens a session for the user and answers its bearer token. */
  open(userId: number, remember: boolean): Promise<string>;
  /** A fresh token for a session that is still open. */
  reissue(session: Session): Promise<string>;
  revoke(sessionId: string): Promise<void>;
  /** Ends every session of the user, but `except` when given (the one changing the password). */
  revokeAllFor(userId: number, options?: { except?: string }): Promise<void>;
  /** Drops what is remembered of the user's sessions, after their roles or status changed. */
  forget(userId: number): void;
  /** The open session a verified token names, or null. */
  check(sessionId: string, userId: number): Promise<Session | null>;
  /** Whether every end of a session is heard now (the readiness check's "listener"). */
  listening(): boolean;
  /** Stops listening for ended sessions. */
  close(): Promise<void>;
}

async function sessionService(database: Pick<DatabaseHandle, 'db' | 'listen'>, key: Uint8Array, log: FastifyBaseLogger): Promise<SessionService> {
  const { db } = database;
  // Checked sessions by id; null remembers a token that names no open session.
  const checks = new NotifiedCache<{ userId: number; session: Session | null }>(SESSION_CHECK_TTL_MS, 10_000);
  const forgetUser = (userId: number) => checks.forgetWhere((entry) => entry.userId === userId);
  checks.subscription = await database.listen(
    sessionCheckChannel,
    (changed) => (changed ? forgetUser(Number(changed)) : checks.forget(null)),
    (error) => log.warn({ err: loggable(error), channel: sessionCheckChannel }, 'cannot listen for ended sessions: every request checks its session in the database meanwhile'),
  );
  /**
   * Every end of sessions (logout, deactivation, a password changed or reset) comes here: this instance
   * drops its checks of them at once, and the trigger of 0028 tells every other instance at commit.
   */
  async function end(which: SQL | undefined) {
    const ended = await db
      .update(userSessions)
      .set({ revokedAt: new Date() })
      .where(and(isNull(userSessions.revokedAt), which))
      .returning({ id: userSessions.id });
    for (const { id } of ended) checks.forget(id);
  }
  const sign = (userId: number, sessionId: string, expiresAt: Date) =>
    new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(userId))
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(key);
  return {
    async open(userId, remember) {
      const hours = remember ? REMEMBERED_SESSION_DAYS * 24 : SESSION_HOURS;
      const expiresAt = new Date(Date.now() + hours * 3600_000);
      const id = randomUUID();
      await db.insert(userSessions).values({ id, userId, expiresAt });
      return sign(userId, id, expiresAt);
    },
    reissue: (session) => sign(session.userId, session.sessionId, session.expiresAt),
    revoke: (sessionId) => end(eq(userSessions.id, sessionId)),
    revokeAllFor: (userId, options) =>
      end(and(eq(userSessions.userId, userId), options?.except ? ne(userSessions.id, options.except) : undefined)),
    forget: forgetUser,
    listening: () => checks.subscription!.live(),
    close: () => checks.subscription!.close(),
    async check(sessionId, userId) {
      const known = await checks.get(sessionId);
      if (known) return known.userId === userId && known.session && known.session.expiresAt.getTime() > Date.now() ? known.session : null;
      const ticket = checks.ticket();
      const [row] = await db
        .select({ roles: users.roles, expiresAt: userSessions.expiresAt })
        .from(userSessions)
        .innerJoin(users, eq(users.id, userSessions.userId))
        .where(
          and(
            eq(userSessions.id, sessionId),
            eq(users.id, userId),
            isNull(userSessions.revokedAt),
            gt(userSessions.expiresAt, new Date()),
            eq(users.isActive, true),
          ),
        );
      const session = row ? { userId, sessionId, roles: row.roles as Role[], expiresAt: row.expiresAt } : null;
      checks.remember(ticket, sessionId, { userId, session }, session?.expiresAt);
      return session;
    },
  };
}

/**
 * Reads the bearer token on every request and enforces the route's declared `auth` requirement,
 * so handlers never check roles themselves. A token is good only while its session is open and
 * its user is active.
 */
export const authPlugin = fp(async (app: FastifyInstance, opts: { database: Pick<DatabaseHandle, 'db' | 'listen'>; jwtSecret: string }) => {
  const key = new TextEncoder().encode(opts.jwtSecret);
  const sessions = await sessionService(opts.database, key, app.log);
  app.decorate('sessions', sessions);
  app.addHook('onClose', () => sessions.close());
  app.decorateRequest('session', null);

  // Tokens whose signature was checked lately; a token expires with its session, which check() tests.
  const verifiedTokens = new RecentCache<string, { sessionId: string; userId: number }>(VERIFIED_TOKEN_TTL_MS, 10_000);

  async function readSession(request: FastifyRequest): Promise<Session | null> {
    const header = request.headers.authorization;
    if (!header?.startsWith('Bearer ')) return null;
    const token = header.slice(7);
    let claims = verifiedTokens.get(token);
    if (!claims) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        if (typeof payload.sid !== 'string' || !payload.sub) return null;
        claims = { sessionId: payload.sid, userId: Number(payload.sub) };
        verifiedTokens.set(token, claims, payload.exp === undefined ? undefined : payload.exp * 1000);
      } catch {
        return null;
      }
    }
    return app.sessions.check(claims.sessionId, claims.userId);
  }

  // Only on the routes that ask for a session, and first among their onRequest hooks (a per-account
  // limit is keyed by the session): as a hook of every route, it cost each public call a promise and a
  // turn of the microtask queue for nothing.
  app.addHook('onRoute', (route) => {
    const requirement = route.config?.auth;
    if (!requirement) return;
    const authenticate: onRequestAsyncHookHandler = async (request) => {
      request.session = await readSession(request);
      if (!request.session) throw unauthorized(messages.invalidAccessToken);
      if (requirement !== 'signedIn' && !request.session.roles.some((r) => requirement.includes(r))) {
        throw forbidden(messages.forbidden);
      }
    };
    route.onRequest = [authenticate, ...(Array.isArray(route.onRequest) ? route.onRequest : route.onRequest ? [route.onRequest] : [])];
  });
});

export const isAdministrator = (session: Session) => session.roles.includes('admin');

/** Owners act on their own records; administrators act on anyone's. */
export function mayActFor(session: Session, ownerUserId: number): boolean {
  return session.userId === ownerUserId || isAdministrator(session);
}

/** The signed-in session of a route declared with `auth`. */
export function sessionOf(request: FastifyRequest): Session {
  if (!request.session) throw unauthorized(messages.invalidAccessToken);
  return request.session;
}
