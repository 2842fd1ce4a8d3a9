import { ValidationError } from './types.js';

/** Why PostgreSQL cannot store a text as given: a NUL character, or a lone UTF-16 surrogate (not Unicode at all). */
export function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'Null characters are not allowed.';
  // In a u-mode pattern a surrogate pair is one code point: only a lone surrogate is of category Cs.
  if (/\p{Cs}/u.test(text)) return 'Lone surrogates are not allowed: the text is not valid Unicode.';
  return undefined;
}

/** The first text of a JSON value (keys included) that cannot be stored, and why. */
export function badText(value: unknown): string | undefined {
  if (typeof value === 'string') return textProblem(value);
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = badText(item);
      if (problem) return problem;
    }
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const problem = textProblem(key) ?? badText(item);
      if (problem) return problem;
    }
  }
  return undefined;
}

/** Refuses (400) an object whose values hold text that cannot be stored, naming the first such key. */
export function checkTexts(fields: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(fields)) {
    const problem = textProblem(key) ?? badText(value);
    if (problem) throw ValidationError.of(key, problem);
  }
}

/** Text safe inside HTML, in element content and in quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
