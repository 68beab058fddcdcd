import { limits, type Pet } from '@petreg/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, singleAddress, type Mailer, type MailMessage } from '../src/adapters/mail/index.js';
import { chips, petAlerts, pets, users } from '../src/db/schema.js';
import { sendDueAlertEmails } from '../src/worker/alertEmails.js';
import { alertKit, alertMailSettings } from './alertKit.js';
import { call, createTestApp, readOutbox, registerPet, signUpOwner, uniqueChip, type TestContext } from './helpers.js';

// What the lost pet alert e-mail tells a professional, and what it must never tell a stranger.

let ctx: TestContext;
const { siteNear, profileOf, sendAndPay } = alertKit(() => ctx);
const db = () => ctx.database.db;

beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const sent: MailMessage[] = [];
const collector: Mailer = { send: async (message) => void sent.push(message) };
/** The worker's run on a clock years ahead: the pet's age in the e-mail is read on it. */
const SEND_AT = new Date('2040-07-15T12:00:00Z');

/**
 * An owner (phone (415) 555-2671) whose chipped Beagle, born 2020-05-01 and weighing 22 lb, is lost
 * near the ZIP; one clinic there gets the alert. Answers the clinic's e-mail as the worker sends it.
 */
async function alertFor(zip: string, changes: { shareContactInfo?: boolean; name?: string; colour?: string; incidentDescription?: string } = {}) {
  const owner = await signUpOwner(ctx.app);
  const chip = uniqueChip('985');
  const registered = await registerPet(ctx.app, owner.token, chip);
  const { incidentDescription, ...petChanges } = changes;
  const saved = await call<Pet>(ctx.app, 'PUT', 'Pet/pet-profile', {
    token: owner.token,
    body: await profileOf(registered, { approximateWeight: 22, shareContactInfo: false, ...petChanges }),
  });
  expect(saved.status).toBe(200);
  const pet = saved.body.result!;
  const clinic = await siteNear(zip, 2);
  await sendAndPay(owner.token, pet.id, { zipCode: zip, ...(incidentDescription && { incidentDescription }) });
  const [row] = await db().select({ publicId: pets.publicId }).from(pets).where(eq(pets.id, pet.id));
  const mail = async () => {
    await sendDueAlertEmails(db(), collector, alertMailSettings, SEND_AT);
    return sent.find((m) => m.to === clinic.email)!;
  };
  return { owner, pet, chip, publicId: row!.publicId, clinic, mail };
}

const ownerWordsOf = (text: string) => {
  const lines = text.split('\n');
  const start = lines.indexOf("In the owner's words:");
  return lines.slice(start + 1, lines.indexOf('', start));
};

describe('the alert e-mail to professionals', () => {
  it("carries the chip, the pet's details, the owner's words and the way to reach the owner, in both parts", async () => {
    const { chip, publicId, mail } = await alertFor('78701', {
      colour: 'Tricolour & white blaze',
      incidentDescription: 'Slipped the leash at the park.\nRed collar, no tag.',
    });
    const { text, html } = await mail();
    const reach = `http://localhost:3000/found?pet=${publicId}`;
    const details = [`Microchip: ${chip}`, 'Species: Dog', 'Breed: Beagle', 'Colour: Tricolour & white blaze', 'Sex: Male', 'Age: 20 years 2 months', 'Weight: 22 lb (10 kg)'];
    expect(text).toContain(`\n\n${details.join('\n')}\n\n`);
    expect(text).toMatch(/\nMissing since \w+day, \w{3} \d+, \d{4}, \d+(:\d\d)? [AP]M CS?T, last seen near Austin, TX 78701\.\n/);
    expect(text).toContain("\nIn the owner's words:\n> Slipped the leash at the park.\n> Red collar, no tag.\n");
    expect(text).toContain(`\nReach the owner: ${reach}\n`);
    expect(text).toContain('\nOur recovery line (24/7): (800) 555-0142\n');
    for (const cell of [chip, 'Dog', 'Beagle', 'Male', '20 years 2 months', '22 lb (10 kg)']) expect(html).toContain(`>${cell}</td>`);
    expect(html).toMatch(/>Breed<\/th><td [^>]*>Beagle<\/td><\/tr><tr><th [^>]*>Colour<\/th><td [^>]*>Tricolour &#38; white blaze<\/td><\/tr><tr><th [^>]*>Sex</);
    expect(html).toContain('Slipped the leash at the park.<br>Red collar, no tag.</blockquote>');
    expect(html).toContain(`<a href="${reach}" `);
    expect(html).toContain('>Reach the owner</a>');
    expect(html).toContain('<a href="tel:+18005550142" style="white-space:nowrap">(800) 555-0142</a>');
  });

  it("gives the owner's phone (tel: link) and a Reply-To to the owner's address only when the owner shares contact info", async () => {
    const shared = await alertFor('98101', { shareContactInfo: true });
    const withContact = await shared.mail();
    expect(withContact.replyTo).toBe(shared.owner.user.data.email);
    expect(withContact.text).toContain("\nOwner's phone: (415) 555 - 2671\nOr reply to this e-mail: it goes to the owner.\n");
    expect(withContact.html).toContain('Owner&#39;s phone: <a href="tel:+14155552671" style="white-space:nowrap">(415) 555 - 2671</a>');

    const kept = await alertFor('85004');
    const withoutContact = await kept.mail();
    expect(withoutContact.replyTo).toBeUndefined();
    const owner = kept.owner.user.data.email;
    for (const part of [withoutContact.text, withoutContact.html!, withoutContact.subject]) {
      expect(part).not.toContain(owner);
      expect(part).not.toMatch(/555\D{0,3}2671/);
      expect(part).not.toContain("Owner's phone");
      expect(part).not.toContain('reply to this e-mail');
    }
    expect(withoutContact.text).toContain(`Reach the owner: http://localhost:3000/found?pet=${kept.publicId}\n`);
    // With no relay and nothing shared a reply would reach nobody: the e-mail says so and points to the form.
    expect(withoutContact.text).toContain('\nReplies to this e-mail are not read: use Reach the owner above.\n');
    // No colour recorded: no Colour row, in either part.
    expect(withoutContact.text.split('\n').filter((line) => line.startsWith('Colour'))).toEqual([]);
    expect(withoutContact.html).not.toContain('>Colour</th>');
  });

  it('keeps a hostile name and description inert: no forged line, header, link or markup', async () => {
    const alert = await alertFor('30301', { shareContactInfo: true, incidentDescription: 'x' });
    const description = [
      'Ran off </a><a href="http://evil.example">Reach the owner</a>',
      "Owner's phone: (555) 555 - 0199",
      'Bcc: thief@evil.example',
      '',
      '',
      '',
      '<script>alert(1)</script>\u2028Reach the owner: http://evil.example',
      'y'.repeat(300),
    ].join('\r\n');
    // Stored past today's rules (one-line names, the form's length), as an older row might be.
    await db()
      .update(pets)
      .set({
        name: 'Rex</a>\r\nReach the owner: http://evil.example',
        colour: 'Black</td><a href="http://evil.example">x</a>\nBcc: thief@evil.example',
      })
      .where(eq(pets.id, alert.pet.id));
    await db().update(petAlerts).set({ incidentDescription: description }).where(eq(petAlerts.petId, alert.pet.id));
    const { text, html, subject } = await alert.mail();

    expect(subject).toBe('Lost dog: Rex</a> Reach the owner: http://evil.example, last seen near Atlanta, GA 30301');
    const lines = text.split('\n');
    expect(lines.filter((line) => line.startsWith('Reach the owner:'))).toEqual([`Reach the owner: http://localhost:3000/found?pet=${alert.publicId}`]);
    expect(lines.filter((line) => line.startsWith("Owner's phone:"))).toEqual(["Owner's phone: (415) 555 - 2671"]);
    expect(lines.filter((line) => line.startsWith('Bcc'))).toEqual([]);
    expect(lines).toContain('Colour: Black</td><a href="http://evil.example">x</a> Bcc: thief@evil.example');
    const words = ownerWordsOf(text);
    expect(words.every((line) => line === '>' || line.startsWith('> '))).toBe(true);
    expect(words).toEqual([
      '> Ran off </a><a href="http://evil.example">Reach the owner</a>',
      "> Owner's phone: (555) 555 - 0199",
      '> Bcc: thief@evil.example',
      '>',
      '> <script>alert(1)</script>',
      '> Reach the owner: http://evil.example',
      // The form's cap: the description up to its limit, then an ellipsis.
      `> ${'y'.repeat(limits.incidentDescriptionMax - description.indexOf('y'))}…`,
    ]);

    expect(html).not.toMatch(/(href|src)="[^"]*evil/);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('</a><a');
    expect(html).toContain('Ran off &#60;/a&#62;&#60;a href=&#34;http://evil.example&#34;&#62;Reach the owner&#60;/a&#62;');
    expect(html).toContain('Lost dog: Rex&#60;/a&#62; Reach the owner: http://evil.example</h1>');
    expect(html).toContain('>Black&#60;/td&#62;&#60;a href=&#34;http://evil.example&#34;&#62;x&#60;/a&#62; Bcc: thief@evil.example</td>');
    // Only the registry's own links: reach the owner, the owner's phone, the profile, the recovery line, preferences, unsubscribe.
    expect(html!.match(/<a /g)).toHaveLength(6);
  });

  it('lists every chip the pet carries, and none it no longer does', async () => {
    const alert = await alertFor('02108');
    const second = uniqueChip('900');
    const removed = uniqueChip('981');
    await db().insert(chips).values([{ petId: alert.pet.id, chipId: second }, { petId: alert.pet.id, chipId: removed, removedAt: new Date() }]);
    const { text } = await alert.mail();
    expect(text.split('\n')).toContain(`Microchips: ${alert.chip}, ${second}`);
    expect(text).not.toContain(removed);
  });
});

describe("the owner's address as a Reply-To", () => {
  it('is one plain address, or none: a stored address with a comma, a line break, a name or a group is no address', () => {
    expect(singleAddress('owner@example.com')).toBe('owner@example.com');
    for (const hostile of [
      'owner@example.com, thief@evil.example',
      'owner@example.com;thief@evil.example',
      'owner@example.com\r\nBcc: thief@evil.example',
      'owner@example.com\nthief@evil.example',
      'Owner <owner@example.com>',
      'list: owner@example.com, thief@evil.example;',
      ' owner@example.com',
      'not an address',
    ]) {
      expect(singleAddress(hostile), JSON.stringify(hostile)).toBeNull();
    }
  });

  it('leaves out the Reply-To and the reply line when the stored address is not one address', async () => {
    const alert = await alertFor('60601', { shareContactInfo: true });
    await db().update(users).set({ email: `${alert.owner.user.data.email},\r\nBcc: thief@evil.example` }).where(eq(users.id, alert.owner.user.id));
    const mail = await alert.mail();
    expect(mail.replyTo).toBeUndefined();
    expect(mail.text).not.toContain('reply to this e-mail');
    expect(mail.text).toContain("Owner's phone: (415) 555 - 2671");
  });

  it('is written by the mail adapter only when it is one address: no second header or recipient', async () => {
    const outboxDir = `${ctx.outboxDir}/reply-to`;
    const mailer = createMailer({ from: alertMailSettings.mailFrom, outboxDir });
    await mailer.send({ to: 'clinic@vets.example', subject: 'A', text: 'x', replyTo: 'owner@example.com' });
    await mailer.send({ to: 'clinic@vets.example', subject: 'B', text: 'x', replyTo: 'owner@example.com\r\nBcc: thief@evil.example' });
    await mailer.send({ to: 'clinic@vets.example', subject: 'C', text: 'x', replyTo: 'owner@example.com, thief@evil.example' });
    const [one, broken, two] = (await readOutbox(outboxDir)).sort((a, b) => a.subject!.localeCompare(b.subject!));
    expect(one!.replyTo?.value).toEqual([{ address: 'owner@example.com', name: '' }]);
    for (const mail of [broken!, two!]) {
      expect(mail.replyTo).toBeUndefined();
      expect(mail.bcc).toBeUndefined();
      expect(mail.headerLines.map((h) => h.key)).not.toContain('bcc');
      expect(JSON.stringify(mail.headerLines)).not.toContain('thief');
    }
  });
});
