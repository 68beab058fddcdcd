import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contract from './index.js';
import { messages } from './messages.js';

/** Checks that only rewrite the value (trim, toUpperCase): they cannot fail, so they need no message. */
const rewrites = new Set(['overwrite']);
/** Schemas that take any value: nothing to fail. */
const acceptsAnything = new Set(['unknown', 'any']);
/** Wrappers whose own failure is their inner schema's. */
const wrappers = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional', 'catch']);

type Def = {
  type: string;
  error?: unknown;
  checks?: { _zod: { def: { check: string; error?: unknown; fn?: unknown } } }[];
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
};

const defOf = (schema: z.ZodType) => schema._zod.def as unknown as Def;

/**
 * Every rule of the schema (its type, each check and refinement) that would fail with zod's own
 * text, named by where it sits. A `superRefine` words its issues itself, so it is not listed.
 */
function rulesWithoutMessage(schema: z.ZodType, where: string): string[] {
  const def = defOf(schema);
  if (acceptsAnything.has(def.type)) return [];
  if (wrappers.has(def.type)) return rulesWithoutMessage(def.innerType!, where);
  if (def.type === 'pipe') return [...rulesWithoutMessage(def.in!, where), ...rulesWithoutMessage(def.out!, where)];
  // A transform maps a value already checked; it has no rule of its own.
  if (def.type === 'transform') return [];
  const missing: string[] = [];
  if (!def.error) missing.push(`${where}: ${def.type} type`);
  for (const check of def.checks ?? []) {
    const checkDef = check._zod.def;
    if (rewrites.has(checkDef.check)) continue;
    const isSuperRefine = checkDef.check === 'custom' && !checkDef.fn;
    if (!checkDef.error && !isSuperRefine) missing.push(`${where}: ${checkDef.check}`);
  }
  // A union reports one issue with its own message whichever option failed, so its options need none.
  if (def.shape) for (const [key, field] of Object.entries(def.shape)) missing.push(...rulesWithoutMessage(field, `${where}.${key}`));
  if (def.element) missing.push(...rulesWithoutMessage(def.element, `${where}[]`));
  if (def.keyType) missing.push(...rulesWithoutMessage(def.keyType, `${where}{key}`));
  if (def.valueType) missing.push(...rulesWithoutMessage(def.valueType, `${where}{value}`));
  return missing;
}

/** What a rule's error says: zod keeps a message given as text as a function answering it. */
const said = (error: unknown) => (typeof error === 'function' ? (error as (issue: unknown) => unknown)({}) : error);

/** Every text field of the schema, by where it sits, that takes control characters (no one-line or several-lines rule). */
function textTakingControlCharacters(schema: z.ZodType, where: string): string[] {
  const def = defOf(schema);
  if (wrappers.has(def.type)) return textTakingControlCharacters(def.innerType!, where);
  // A pipe's input is what the request holds (emailField pipes checked text into z.email).
  if (def.type === 'pipe') return textTakingControlCharacters(defOf(def.in!).type === 'transform' ? def.out! : def.in!, where);
  if (def.type === 'string') return def.checks?.some((check) => said(check._zod.def.error) === messages.controlCharacter) ? [] : [where];
  const found: string[] = [];
  if (def.shape) for (const [key, field] of Object.entries(def.shape)) found.push(...textTakingControlCharacters(field, `${where}.${key}`));
  if (def.element) found.push(...textTakingControlCharacters(def.element, `${where}[]`));
  if (def.keyType) found.push(...textTakingControlCharacters(def.keyType, `${where}{key}`));
  if (def.valueType) found.push(...textTakingControlCharacters(def.valueType, `${where}{value}`));
  for (const [i, option] of (def.options ?? []).entries()) found.push(...textTakingControlCharacters(option, `${where}|${i}`));
  return found;
}

const schemas = Object.entries(contract as Record<string, unknown>).filter(
  (entry): entry is [string, z.ZodType] => entry[1] instanceof z.ZodType,
);

describe('contract schemas', () => {
  it('are all found', () => {
    expect(schemas.map(([name]) => name)).toEqual(
      expect.arrayContaining(['signUpSchema', 'petRegistrationSchema', 'userSettingsSchema', 'cardSchema', 'idParams', 'dateField']),
    );
  });

  it('give every rule a message of the product, never the schema library default', () => {
    const missing = schemas.flatMap(([name, schema]) => rulesWithoutMessage(schema, name));
    expect(missing).toEqual([]);
  });

  it('hold every text field to one line (or, for notes, to line breaks), but passwords, settings keys and patterned values', () => {
    const taking = schemas.flatMap(([name, schema]) => textTakingControlCharacters(schema, name));
    // Passwords are never shown nor sent; a date, a time or a uuid is held to its pattern; settings are the web app's own JSON.
    const exempt = /[pP]assword(Confirm|Field)?$|\.(dob|lastRabiesVaccine|missingDate|token)$|^(dateField|missingDateField)$|settings\{key\}$/;
    expect(taking.filter((where) => !exempt.test(where))).toEqual([]);
    expect(taking.length).toBeGreaterThan(10);
  });

  it('the walk notices a rule without a message', () => {
    const bare = z.object({ name: z.string({ error: 'x' }).max(3).refine(() => true, { error: 'y' }) }, { error: 'z' });
    expect(rulesWithoutMessage(bare, 'bare')).toEqual(['bare.name: max_length']);
    expect(rulesWithoutMessage(z.array(z.number({ error: 'n' })).optional(), 'list')).toEqual(['list: array type']);
  });
});
