import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Case } from './corpus.js';

/** What one side made of a case: its output, or the error it failed with. */
export type Result = { output: string; error?: undefined } | { error: string; output?: undefined };

const SCRIPT = fileURLToPath(new URL('./jinja-reference.py', import.meta.url));

/**
 * Python: `python3` from PATH, else /usr/bin/python3, whichever imports jinja2 (JINJA_PYTHON overrides, to check
 * another Jinja2 version). Without Jinja2 the suite fails: install it with `apt-get install python3-jinja2`.
 */
function findPython(): string {
  const candidates = process.env.JINJA_PYTHON ? [process.env.JINJA_PYTHON] : ['python3', '/usr/bin/python3'];
  for (const python of candidates) {
    try {
      execFileSync(python, ['-c', 'import jinja2'], { stdio: 'ignore' });
      return python;
    } catch {
      // try the next one
    }
  }
  throw new Error(`No Python with Jinja2 found (tried ${candidates.join(', ')}): run apt-get install python3-jinja2`);
}

/** The cases rendered by real Jinja2 (jinja-reference.py), in order, and its version. */
export function reference(cases: Omit<Case, 'name'>[]): { version: string; results: Result[] } {
  const input = JSON.stringify(
    cases.map(({ template, context, params, templates }) => ({ template, context, params, templates })),
  );
  return JSON.parse(execFileSync(findPython(), [SCRIPT], { input, maxBuffer: 64 * 1024 * 1024 }).toString()) as {
    version: string;
    results: Result[];
  };
}
