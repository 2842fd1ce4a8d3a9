import { RE2 } from 're2-wasm';

/** A compiled user pattern: `test` runs in time linear in the text, whatever the pattern. */
export interface UserRegex {
  test(text: string): boolean;
}

const compiled = new Map<string, UserRegex>();
const CACHE_SIZE = 256;

/**
 * A regular expression a user wrote (a custom field's `validation_regex`, say), compiled for RE2, a linear-time
 * engine: no pattern can stall the event loop (`^(a+)+$` against a long text takes microseconds). Patterns RE2
 * cannot run in linear time (backreferences, lookaround) are refused: throws the reason as a string.
 */
export function userRegex(pattern: string): UserRegex {
  let regex = compiled.get(pattern);
  if (!regex) {
    try {
      regex = new RE2(pattern, 'u');
    } catch (err) {
      throw `Enter a valid regular expression: ${(err as Error).message.replace(/^Invalid regular expression: /, '')}`;
    }
    if (compiled.size >= CACHE_SIZE) compiled.delete(compiled.keys().next().value!);
    compiled.set(pattern, regex);
  }
  return regex;
}
