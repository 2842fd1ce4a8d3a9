/**
 * A listener on a request, a response, a socket or another stream runs outside every request's error handling: what
 * it throws is an uncaught exception, which ends the process (a `close` listener reading a destroyed socket did).
 * Every such listener the kernel and the plugins attach goes through this (`test/kernel/listeners.test.ts` checks),
 * which hands what it throws to `onError` instead.
 */
export function guarded<A extends unknown[]>(listener: (...args: A) => void, onError: (err: unknown) => void): (...args: A) => void {
  return (...args: A) => {
    try {
      listener(...args);
    } catch (err) {
      try {
        onError(err);
      } catch {
        // Reporting failed too (a logger writing to a closed stream): nothing is left to tell.
      }
    }
  };
}
