/** Waits until `check` holds (polling), failing after `ms`: for what the server does after a response. */
export async function until(check: () => boolean | Promise<boolean>, ms = 15_000, what = 'the condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
