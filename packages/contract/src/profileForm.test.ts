import { describe, expect, it } from 'vitest';
import { profileFormSchema } from './account.js';
import { messages } from './messages.js';

describe('profileFormSchema', () => {
  const form = { firstName: 'Morgan', lastName: 'Lee', email: 'morgan@example.com' };
  const schema = profileFormSchema('Morgan@Example.com');

  it('needs no password while the e-mail stays, whatever its letter case', () => {
    expect(schema.safeParse(form).success).toBe(true);
  });

  it('asks for the current password when the e-mail changes', () => {
    const result = schema.safeParse({ ...form, email: 'new@example.com' });
    expect(result.error?.issues).toEqual([expect.objectContaining({ path: ['currentPassword'], message: messages.currentPasswordRequired })]);
    expect(schema.safeParse({ ...form, email: 'new@example.com', currentPassword: 'Secret#123' }).success).toBe(true);
  });
});
