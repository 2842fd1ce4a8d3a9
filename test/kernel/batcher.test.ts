import { describe, expect, it } from 'vitest';
import { Batcher } from '../../kernel/model/batch.js';

describe('Batcher', () => {
  it('loads the keys callers ask for side by side once, each distinct key once, and answers each caller its value', async () => {
    const batcher = new Batcher();
    const loads: unknown[][] = [];
    const load = async (keys: unknown[]) => {
      loads.push(keys);
      return keys.map((k) => JSON.stringify(k));
    };
    const asked = [batcher.load('l', 1, load), batcher.load('l', 2, load), batcher.load('l', 1, load), batcher.load('l', '1', load), batcher.load('l', { slug: 'a' }, load), batcher.load('l', { slug: 'a' }, load)];
    expect(await Promise.all(asked)).toEqual(['1', '2', '1', '"1"', '{"slug":"a"}', '{"slug":"a"}']);
    // The id 1 and the text '1' are different keys; equal attribute sets are one.
    expect(loads).toEqual([[1, 2, '1', { slug: 'a' }]]);
    // Asked once the round has loaded: a round of its own.
    expect(await batcher.load('l', 1, load)).toBe('1');
    expect(loads).toHaveLength(2);
  });

  it('fails every caller of a round whose load fails', async () => {
    const batcher = new Batcher();
    const load = async () => {
      throw new Error('no database');
    };
    const asked = [batcher.load('l', 1, load), batcher.load('l', 1, load), batcher.load('l', 2, load)];
    const settled = await Promise.allSettled(asked);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected', 'rejected']);
  });
});
