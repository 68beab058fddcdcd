import { describe, expect, it } from 'vitest';
import { createTaskQueue } from '../src/taskQueue.js';

/** A job that runs until the test ends it. */
function gate() {
  let open!: () => void;
  let fail!: (error: Error) => void;
  const done = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { open, fail, done };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('task queue (image decodes)', () => {
  it('runs at most its size at once; the others wait, in order, and all run', async () => {
    const run = createTaskQueue(2);
    const gates = Array.from({ length: 5 }, gate);
    const started: number[] = [];
    const results = gates.map((g, i) =>
      run(async () => {
        started.push(i);
        await g.done;
        return i;
      }),
    );
    const settled = Promise.allSettled(results);
    await turn();
    expect(started).toEqual([0, 1]);
    gates[1]!.open();
    await turn();
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.fail(new Error('not an image'));
    await turn();
    // A failed job frees its place too.
    expect(started).toEqual([0, 1, 2, 3]);
    for (const g of gates) g.open();
    expect((await settled).map((s) => s.status)).toEqual(['rejected', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect(started).toEqual([0, 1, 2, 3, 4]);
  });
});
