import { describe, expect, it } from 'vitest';
import { keptTickObject } from '../src/keptTickObject.js';

describe('the tick object the process holds', () => {
  it("is one of the objects process.nextTick queues, taken as a tick callback's own resource", () => {
    // Node's tick object: its async ids under Node's own symbols, the callback and its arguments.
    expect(keptTickObject).toBeDefined();
    const symbols = Object.getOwnPropertySymbols(keptTickObject).map((symbol) => symbol.description);
    expect(symbols).toEqual(expect.arrayContaining(['async_id_symbol', 'trigger_async_id_symbol']));
    expect(keptTickObject).toHaveProperty('callback', expect.any(Function));
    expect(keptTickObject).toHaveProperty('args');
  });
});
