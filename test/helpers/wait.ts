/**
 * How long a server may take to listen: a hang guard, not a speed target (that lives in `npm run bench`). Two workers
 * booting beside another test file on two shared cores have taken over 30 s in CI. A test that starts one allows
 * `STARTS_WITHIN` per start on top of its own work.
 */
export const STARTS_WITHIN = 100_000;

/** Waits until `check` holds (polling), failing after `ms`: for what the server does after a response. */
export async function until(check: () => boolean | Promise<boolean>, ms = 15_000, what = 'the condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
