import type { AuthResult, MailLogPage } from '@petreg/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.js';
import { alertRecipientAddresses } from '../src/db/schema.js';
import { alertKit } from './alertKit.js';
import { call, createTestApp, signInAdministrator, type TestContext } from './helpers.js';

// A file of its own: the first search of the database must find the addresses never analyzed.
let ctx: TestContext;
let admin: AuthResult;
const kit = alertKit(() => ctx);
const db = () => ctx.database.db;
beforeAll(async () => {
  ctx = await createTestApp();
  admin = await signInAdministrator(ctx);
});
afterAll(() => ctx.close());

const list = (query: string) => call<MailLogPage>(ctx.app, 'GET', `admin/mail?query=${encodeURIComponent(query)}&page=1`, { token: admin.token });

describe("the mail log's plans", () => {
  it("reads the alert addresses through their trigram index on the embedded database, gathering their statistics when due, as after a restart", async () => {
    const usage = async () => {
      // A process hands on what it counted at most once a second, unless told to at its next statement's end.
      await db().execute(sql`select pg_stat_force_next_flush()`);
      const [row] = await queryRows<{ analyzed: number; table_reads: number; index_reads: number }>(
        db(),
        sql`select t.analyze_count::int as analyzed, t.seq_scan::int as table_reads, i.idx_scan::int as index_reads
          from pg_stat_user_tables t join pg_stat_user_indexes i on i.relid = t.relid and i.indexrelname = 'alert_recipient_addresses_trgm_idx'
          where t.relname = 'alert_recipient_addresses'`,
      );
      return row!;
    };
    const addAddresses = (from: number, to: number) =>
      db().execute(sql`insert into ${alertRecipientAddresses} (address) select 'branch-' || n || '@clinics.example.net' from generate_series(${from}::int, ${to}::int) n`);
    // A directory's worth: in a few thousand the planner reads a b-tree index in full instead.
    await addAddresses(1, 25_000);
    const clinic = await kit.siteNear('63101', 5);
    const owner = await kit.ownerWithLostPet();
    await kit.sendAndPay(owner.token, owner.pet.id);
    // As after a restart: PGlite counts changes from zero again, and these addresses have no statistics.
    await db().execute(sql`select pg_stat_reset()`);
    const before = await usage();
    const found = (await list(clinic.email!.slice(2, 14))).body.result!;
    expect(found.items.map((mail) => [mail.queue, mail.recipient])).toEqual([['alert', clinic.email]]);
    const searched = await usage();
    expect((await list('clinics.example.net')).body.result!.total).toBe(0);
    const again = await usage();
    await addAddresses(25_001, 28_000);
    await db().execute(sql`select pg_stat_force_next_flush()`);
    await list('nch-27999@');
    const changed = await usage();
    expect(await queryRows(db(), sql`show enable_seqscan`)).toEqual([{ enable_seqscan: 'on' }]);
    if (ctx.database.kind === 'pglite') {
      expect(searched.analyzed).toBe(before.analyzed + 1);
      // A part every address holds: a planner left alone reads the addresses in full (twice: the count and the page).
      expect(again.table_reads).toBe(searched.table_reads);
      expect(again.index_reads).toBeGreaterThan(searched.index_reads);
      expect(again.analyzed).toBe(searched.analyzed);
      // 3,000 more: over 50 plus a tenth of 25,000.
      expect(changed.analyzed).toBe(again.analyzed + 1);
    } else {
      // A server's autovacuum gathers them (counted apart, as autoanalyze_count).
      expect(changed.analyzed).toBe(before.analyzed);
    }
  });
});
