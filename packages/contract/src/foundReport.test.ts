import { describe, expect, it } from 'vitest';
import { foundReportSchema, foundReportTargetQuery } from './foundReport.js';
import { messages } from './messages.js';

const errorsOf = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) => {
  const errors: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) errors[issue.path.join('.')] ??= issue.message;
  return errors;
};

const publicId = '6f1c7a1e-8a55-4a44-9d1f-3f1f8f6f2b10';
const valid = { publicId, name: 'Robin Hale', phone: '(314) 555-0142', email: '', message: 'Found her.\nShe is safe.', where: '63101' };

describe("the finder's form", () => {
  it('takes a report by public id or by chip, normalising the chip and emptying blank optional fields', () => {
    const parsed = foundReportSchema.parse({ ...valid, answer: '  ' });
    expect(parsed).toMatchObject({ publicId, phone: '(314) 555-0142', email: null, answer: null, photo: null, message: 'Found her.\nShe is safe.' });
    const { publicId: _id, ...byChip } = valid;
    expect(foundReportSchema.parse({ ...byChip, chipId: '985 141 000 123 456' }).chipId).toBe('985141000123456');
  });

  it('shows every field\'s message together on the first try', () => {
    expect(errorsOf(foundReportSchema.safeParse({ publicId, name: '', phone: '', email: 'x@', message: '', where: '', answer: 'a'.repeat(201) }))).toEqual({
      name: messages.contactNameRequired,
      email: messages.emailInvalid,
      message: messages.foundMessageRequired,
      where: messages.foundWhereRequired,
      answer: messages.verificationAnswerTooLong,
    });
  });

  it('needs a phone number or an e-mail, either one', () => {
    expect(errorsOf(foundReportSchema.safeParse({ ...valid, phone: '', email: null }))).toEqual({ phone: messages.finderContactRequired });
    expect(foundReportSchema.safeParse({ ...valid, phone: '', email: 'robin@example.net' }).success).toBe(true);
    expect(errorsOf(foundReportSchema.safeParse({ ...valid, phone: '123' }))).toEqual({ phone: messages.contactPhoneInvalid });
  });

  it('keeps line breaks in the message only, and bounds each field', () => {
    expect(errorsOf(foundReportSchema.safeParse({ ...valid, name: 'Robin\nBcc: x', where: 'Park\r\n', message: 'tab\there' }))).toEqual({
      name: messages.controlCharacter,
      where: messages.controlCharacter,
      message: messages.controlCharacter,
    });
    expect(errorsOf(foundReportSchema.safeParse({ ...valid, name: 'n'.repeat(101), message: 'm'.repeat(501), where: 'w'.repeat(201) }))).toEqual({
      name: messages.contactNameTooLong,
      message: messages.foundMessageTooLong,
      where: messages.foundWhereTooLong,
    });
  });

  it('names exactly one pet', () => {
    expect(errorsOf(foundReportSchema.safeParse({ ...valid, chipId: '985141000123456' }))).toEqual({ '': messages.invalidRequest });
    expect(errorsOf(foundReportSchema.safeParse({ ...valid, publicId: undefined }))).toEqual({ '': messages.invalidRequest });
    expect(errorsOf(foundReportSchema.safeParse({ ...valid, publicId: undefined, chipId: '12345' }))).toEqual({ chipId: messages.lookupLength });
  });
});

describe('the form\'s opening query', () => {
  it('takes a pet or a chip, never both', () => {
    expect(foundReportTargetQuery.parse({ chip: 'AVID*123*456*789' })).toEqual({ chip: '123456789' });
    expect(foundReportTargetQuery.safeParse({ pet: publicId }).success).toBe(true);
    expect(errorsOf(foundReportTargetQuery.safeParse({}))).toEqual({ '': messages.invalidRequest });
    expect(errorsOf(foundReportTargetQuery.safeParse({ pet: publicId, chip: '123456789' }))).toEqual({ '': messages.invalidRequest });
  });
});
