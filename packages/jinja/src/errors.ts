/** A template failed to compile or render. */
export class TemplateError extends Error {
  override readonly name = 'TemplateError';

  /** `line`: the 1-based template line, when known. */
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(message);
  }
}

/** The Python exception classes a Jinja2 render can raise; filters catch some of them by class, as Jinja's do. */
export type PyErrorType =
  | 'TypeError'
  | 'ValueError'
  | 'KeyError'
  | 'IndexError'
  | 'ZeroDivisionError'
  | 'OverflowError'
  | 'RuntimeError'
  | 'RecursionError'
  | 'UndefinedError'
  | 'SecurityError'
  | 'FilterArgumentError'
  | 'TemplateRuntimeError'
  | 'TemplateNotFound'
  | 'TemplateSyntaxError'
  | 'TemplateAssertionError';

/** A Python exception raised while rendering; the renderer turns it into a TemplateError with the line. */
export class PyError extends Error {
  constructor(
    readonly type: PyErrorType,
    message: string,
  ) {
    super(message);
  }
}

export function raise(type: PyErrorType, message: string): never {
  throw new PyError(type, message);
}

/**
 * Python's MemoryError: the render would pass its allocation budget (meter.ts). Not a PyError on purpose: filters and
 * tests catch PyErrors by class (`default`, `is defined`, `int`'s fallbacks), and none may swallow this one.
 */
export class MemoryLimitError extends Error {
  constructor() {
    super('MemoryError: the template would use more memory than a render may use');
  }
}
