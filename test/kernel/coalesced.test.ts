import { describe, expect, it } from 'vitest';
import { Coalesced } from '../../kernel/base/coalesced.js';

describe('Coalesced', () => {
  it('writes what is added in one turn with one call, and what arrives during a call with the next', async () => {
    const calls: number[][] = [];
    let release: (() => void) | undefined;
    const coalesced = new Coalesced<number>(async (items) => {
      calls.push(items);
      if (calls.length === 1) await new Promise<void>((ok) => (release = ok));
    });
    const first = [coalesced.add(1), coalesced.add(2)];
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual([[1, 2]]);
    // Added while the first call runs: they wait, and go together.
    const second = [coalesced.add(3), coalesced.add(4), coalesced.add(5)];
    let settled = false;
    void Promise.all(first).then(() => (settled = true));
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    release!();
    await Promise.all([...first, ...second]);
    expect(calls).toEqual([[1, 2], [3, 4, 5]]);
  });

  it("rejects the items of a failed call only, and goes on with the next", async () => {
    const coalesced = new Coalesced<string>(async (items) => {
      if (items.includes('bad')) throw new Error('refused');
    });
    const failed = [coalesced.add('a'), coalesced.add('bad')];
    await expect(Promise.all(failed)).rejects.toThrow('refused');
    await expect(coalesced.add('c')).resolves.toBeUndefined();
  });
});
