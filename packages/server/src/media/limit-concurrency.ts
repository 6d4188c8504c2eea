/**
 * A counting semaphore as a wrapper: at most `n` wrapped calls run at once, the rest wait in
 * arrival order. A rejected call frees its slot like a resolved one.
 */
export function limitConcurrency(n: number): <T>(fn: () => Promise<T>) => Promise<T> {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`concurrency must be a positive integer, got ${n}`);
  let running = 0;
  const waiting: (() => void)[] = [];

  const release = () => {
    const next = waiting.shift();
    // The slot passes straight to the next waiter, so `running` never dips and lets a newcomer jump the queue.
    if (next) next();
    else running--;
  };

  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (running < n) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await fn();
    } finally {
      release();
    }
  };
}
