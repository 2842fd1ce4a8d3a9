import { ValidationError } from 'patchbay';

/** A check of one text field: why the value cannot be used, or undefined. */
export type TextCheck = (value: string) => string | undefined;

/**
 * Runs `checks` on the text values a write sets (only those: an object stored before a check existed can still be
 * edited otherwise); the ValidationError (400) names every field that fails.
 */
export function checkWrittenText(values: Record<string, unknown>, checks: Record<string, TextCheck>): void {
  const errors: Record<string, string[]> = {};
  for (const [name, check] of Object.entries(checks)) {
    const value = values[name];
    const problem = typeof value === 'string' && value ? check(value) : undefined;
    if (problem) errors[name] = [problem];
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
}
