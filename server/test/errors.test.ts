import { describe, expect, it } from 'vitest';
import { loggable } from '../src/errors.js';

describe('loggable', () => {
  it("keeps a failed query's SQL and error code but never its parameters", () => {
    const error = new Error('Failed query: update "users" set "password_hash" = $1 where "id" = $2\nparams: $argon2id$v=19$secret,42', {
      cause: Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }),
    });
    const logged = loggable(error);
    expect(logged.message).toBe('Failed query: update "users" set "password_hash" = $1 where "id" = $2');
    expect(logged).toMatchObject({ code: '23505', cause: 'duplicate key value violates unique constraint' });
    expect(JSON.stringify(logged)).not.toContain('argon2id');
  });
});
