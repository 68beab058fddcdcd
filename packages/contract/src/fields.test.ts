import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dateField, idField, idParams, jsonDepth, jsonObjectField, maxRecordId, oneLine, textField, timestampField } from './fields.js';
import { messages } from './messages.js';
import { petRegistrationSchema } from './pet.js';

const firstMessage = (schema: z.ZodType, value: unknown) => schema.safeParse(value).error?.issues[0]?.message;

describe('shared field rules', () => {
  it('a date is a real calendar date', () => {
    for (const date of ['2024-02-30', '2021-02-29', '2023-06-31', '0000-01-01', '2024-13-01', '2024-1-01', '1899-12-31']) {
      expect(firstMessage(dateField, date), date).toBe(messages.invalidDate);
    }
    for (const date of ['2024-02-29', '2000-02-29', '1900-01-01', '2023-12-31']) expect(dateField.safeParse(date).success, date).toBe(true);
  });

  it('a record id fits PostgreSQL integer, in a body or a path', () => {
    expect(firstMessage(idField('pick one'), maxRecordId + 1)).toBe('pick one');
    expect(firstMessage(idField('pick one'), 1.5)).toBe('pick one');
    expect(firstMessage(idParams, { id: '2147483648' })).toBe(messages.invalidId);
    expect(firstMessage(idParams, { id: '%00' })).toBe(messages.invalidId);
    expect(idParams.parse({ id: '2147483647' })).toEqual({ id: maxRecordId });
  });

  it('text holds no NUL and says when it is too long', () => {
    expect(firstMessage(textField(10, 'too long'), 'a\u0000b')).toBe(messages.invalidCharacter);
    expect(firstMessage(textField(10, 'too long'), 'a\ud800b')).toBe(messages.invalidCharacter);
    expect(textField(10, 'too long').safeParse('a\u{1F436}').success).toBe(true);
    expect(firstMessage(textField(3, 'too long'), 'abcd')).toBe('too long');
    expect(firstMessage(textField(3, 'too long', 'required'), undefined)).toBe('required');
  });

  // Each Cc range's ends, the line and paragraph separators, and what a pasted line carries.
  const controls = ['\n', '\r', '\r\n', '\t', '\u0001', '\u001b', '\u001f', '\u007f', '\u0080', '\u0085', '\u009f', '\u2028', '\u2029'];

  it('one-line text refuses line breaks and control characters, saying so', () => {
    for (const control of controls) {
      expect(firstMessage(textField(20, 'too long'), `Biscuit${control}Call 555`), JSON.stringify(control)).toBe(messages.controlCharacter);
    }
    for (const kept of ['Biscuit', 'Saint-Jean d\'Arc', 'Zoë 🐶', '\u00a0nbsp', 'a\u200bb']) expect(textField(20, 'too long').safeParse(kept).success, kept).toBe(true);
  });

  it('text of several lines keeps line breaks, not the other control characters', () => {
    const notes = textField(50, 'too long', 'required', 'several');
    expect(notes.safeParse('Shy.\nAnswers to Bis.\r\nLikes cats.').success).toBe(true);
    for (const control of controls.filter((c) => !/^[\r\n]+$/.test(c))) {
      expect(firstMessage(notes, `Shy.${control}`), JSON.stringify(control)).toBe(messages.controlCharacter);
    }
  });

  it('a secret keeps what its owner chose, but never what PostgreSQL refuses', () => {
    const password = textField(50, 'too long', 'required', 'secret');
    expect(password.safeParse('tab\tand\nline').success).toBe(true);
    expect(firstMessage(password, 'a\u0000b')).toBe(messages.invalidCharacter);
  });

  it('oneLine writes a stored value on one line, each run of control characters a space', () => {
    expect(oneLine('Biscuit\r\n\r\nCall 555-0100\u2028now\tplease')).toBe('Biscuit Call 555-0100 now please');
    expect(oneLine('Zoë 🐶')).toBe('Zoë 🐶');
  });

  it('a timestamp is a real moment, sent on as UTC', () => {
    const when = timestampField('required');
    for (const value of [
      '2024-01-01T25:00:00Z',
      '2024-01-01T24:00:00Z',
      '2024-01-01T10:61:00Z',
      '2024-01-01T10:00:60Z',
      '2024-01-01T10:00:00+99:00',
      '2024-01-01T10:00:00+15:00',
      '2024-01-01T10:00:00-10:60',
      '2024-02-30T10:00:00Z',
      '2024-01-01T10:00',
      '2024-01-01 10:00Z',
    ]) {
      expect(firstMessage(when, value), value).toBe(messages.invalidDate);
    }
    expect(firstMessage(when, '')).toBe('required');
    expect(when.parse('2024-01-01T23:59:59.5-05:00')).toBe('2024-01-02T04:59:59.500Z');
    expect(when.parse('2024-01-01T10:00+14:00')).toBe('2023-12-31T20:00:00.000Z');
    expect(when.parse('2024-02-29')).toBe('2024-02-29T00:00:00.000Z');
  });

  it('JSON depth is counted without walking past the limit', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    expect(jsonDepth(deep, 8)).toBe(9);
    expect(jsonDepth({ a: [{ b: 1 }] }, 8)).toBe(3);
  });

  it('stored JSON is bounded in depth and size and holds no character jsonb refuses', () => {
    const settings = jsonObjectField(100, 'too large');
    expect(settings.safeParse({ loginRedirectUrl: '/client/pet' }).success).toBe(true);
    expect(firstMessage(settings, { a: { b: { c: { d: { e: { f: { g: { h: { i: 1 } } } } } } } } })).toBe('too large');
    expect(firstMessage(settings, { a: 'x'.repeat(200) })).toBe('too large');
    expect(firstMessage(settings, { a: 'x\u0000' })).toBe(messages.invalidCharacter);
    expect(firstMessage(settings, { ['key\ud800']: 'x' })).toBe(messages.invalidCharacter);
    expect(firstMessage(settings, { a: ['\udfff'] })).toBe(messages.invalidCharacter);
  });

  it('a form given no object says so instead of throwing', () => {
    expect(firstMessage(petRegistrationSchema, null)).toBe(messages.invalidRequest);
    expect(firstMessage(petRegistrationSchema, [])).toBe(messages.invalidRequest);
  });
});
