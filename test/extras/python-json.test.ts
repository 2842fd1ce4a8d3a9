import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { Json } from 'patchbay';
import { pythonJson } from '../../plugins/extras/webhooks/python-json.js';

/** What Python's `json.dumps` (NetBox's default webhook body) writes for each value, as it parses it from JSON. */
function dumped(values: Json[]): string[] {
  const script = 'import json, sys\nfor v in json.load(sys.stdin): print(json.dumps(v))';
  return execFileSync('python3', ['-c', script], { input: JSON.stringify(values), encoding: 'utf8' }).trimEnd().split('\n');
}

describe("a webhook's default body", () => {
  it("is Python's json.dumps of its context, byte for byte", () => {
    const values: Json[] = [
      null, true, 0, -1.5, 1e21, 'plain', '', [], {}, [[], {}, [[]]], { a: [], b: {}, c: [{}] },
      { event: 'created', data: { id: 7, name: 'a, b: c', tags: [{ name: 'x' }, { name: 'y' }], nested: { deep: [1, [2, [3]]] } } },
      // Line breaks, quotes, backslashes and controls inside strings; separators' look-alikes.
      'line\nbreak\r\ttab "quoted" back\\slash \u0001\u001f', ',\n ', { ',\n': ': ', '[\n': '\n]' },
      // Outside printable ASCII: DEL, Latin, BMP, line separators, an astral character (two escapes), in keys too.
      '\u007f', 'café ünïcödé', '日本語', '\u2028\u2029', '😀 emoji', { 'clé': 'välue', '😀': ['ß'] },
    ];
    expect(values.map(pythonJson)).toEqual(dumped(values));
  });
});
