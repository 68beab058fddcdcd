import { messages, type BackupContact } from '@petreg/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupContacts } from '../src/db/schema.js';
import { call, createTestApp, signUpOwner, type TestContext } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

describe('backup contacts', () => {
  it('adds, lists, edits and removes a contact; removal keeps the record', async () => {
    const { token, user } = await signUpOwner(ctx.app);
    const added = await call<BackupContact>(ctx.app, 'POST', 'Users/backup-contact', { token, body: { name: 'Grandma Rose', phoneNumber: '(503) 555-0199' } });
    expect(added.status).toBe(200);
    expect(added.body.result).toEqual({ id: expect.any(Number), name: 'Grandma Rose', phoneNumber: '+15035550199', phoneConfirmed: false });
    const id = added.body.result!.id;

    const edited = await call<BackupContact>(ctx.app, 'POST', 'Users/backup-contact', { token, body: { id, name: 'Rose', phoneNumber: '1 503 555 0100' } });
    expect(edited.body.result).toEqual({ id, name: 'Rose', phoneNumber: '+15035550100', phoneConfirmed: false });
    expect((await call<BackupContact[]>(ctx.app, 'GET', 'Users/backup-contacts', { token })).body.result).toEqual([edited.body.result]);

    expect((await call(ctx.app, 'DELETE', `Users/BackupContact/${id}`, { token })).status).toBe(200);
    expect((await call<BackupContact[]>(ctx.app, 'GET', 'Users/backup-contacts', { token })).body.result).toEqual([]);
    const [row] = await ctx.database.db.select().from(backupContacts).where(eq(backupContacts.id, id));
    expect(row!.deletedAt).toBeInstanceOf(Date);
    expect(row!.deletedBy).toBe(user.id);
    expect((await call(ctx.app, 'DELETE', `Users/BackupContact/${id}`, { token })).status).toBe(404);
  });

  it.each([
    [{ name: '', phoneNumber: '5035550199' }, messages.contactNameRequired],
    [{ name: 'R', phoneNumber: '5035550199' }, messages.contactNameMin],
    [{ name: 'Rose', phoneNumber: '' }, messages.contactPhoneRequired],
    [{ name: 'Rose', phoneNumber: '55501' }, messages.contactPhoneInvalid],
    [{ name: 'Rose', phoneNumber: 'abcdefghij' }, messages.contactPhoneInvalid],
  ])('refuses %j with the spec message', async (body, message) => {
    const { token } = await signUpOwner(ctx.app);
    const answer = await call(ctx.app, 'POST', 'Users/backup-contact', { token, body });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([message]);
    expect((await call<BackupContact[]>(ctx.app, 'GET', 'Users/backup-contacts', { token })).body.result).toEqual([]);
  });

  it("keeps one owner away from another owner's contacts", async () => {
    const owner = await signUpOwner(ctx.app);
    const intruder = await signUpOwner(ctx.app);
    const { body } = await call<BackupContact>(ctx.app, 'POST', 'Users/backup-contact', { token: owner.token, body: { name: 'Neighbor Al', phoneNumber: '5035550142' } });
    const id = body.result!.id;
    expect((await call(ctx.app, 'POST', 'Users/backup-contact', { token: intruder.token, body: { id, name: 'Hijack', phoneNumber: '5035550000' } })).status).toBe(404);
    expect((await call(ctx.app, 'DELETE', `Users/BackupContact/${id}`, { token: intruder.token })).status).toBe(404);
    expect((await call<BackupContact[]>(ctx.app, 'GET', 'Users/backup-contacts', { token: intruder.token })).body.result).toEqual([]);
    expect((await call<BackupContact[]>(ctx.app, 'GET', 'Users/backup-contacts', { token: owner.token })).body.result).toEqual([
      { id, name: 'Neighbor Al', phoneNumber: '+15035550142', phoneConfirmed: false },
    ]);
  });

  it('needs a token', async () => {
    expect((await call(ctx.app, 'GET', 'Users/backup-contacts')).status).toBe(401);
    expect((await call(ctx.app, 'POST', 'Users/backup-contact', { body: { name: 'x', phoneNumber: 'y' } })).status).toBe(401);
    expect((await call(ctx.app, 'DELETE', 'Users/BackupContact/1')).status).toBe(401);
  });
});
