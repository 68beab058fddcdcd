/**
 * Runs at most `size` jobs at once; the others wait their turn, in the order they came. A job that
 * fails frees its place like one that succeeds.
 */
export function createTaskQueue(size: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async function run<T>(job: () => Promise<T>): Promise<T> {
    if (running < size) running++;
    // The finishing job hands its place on, so no newcomer slips in between.
    else await new Promise<void>((takePlace) => waiting.push(takePlace));
    try {
      return await job();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
