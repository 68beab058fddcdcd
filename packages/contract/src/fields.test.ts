import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dateField, idField, idParams, jsonDepth, jsonObjectField, maxRecordId, textField } from './fields.js';
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
