/** The sandbox's resource limits: single operations a template could use to exhaust the worker. */

/** jinja2.sandbox.MAX_RANGE: the largest range() a template may create. */
export const MAX_RANGE = 100000;

/**
 * The most items `'-' * n` or `[x] * n` may produce, and the widest padding (`'{:>n}'`, `center(n)`): Python has no
 * such limit, but one operator must not take the worker's memory.
 */
export const MAX_REPEAT = 10_000_000;

/** Macro calls, includes, imports and recursive loops nested deeper fail, as Python's recursion limit makes Jinja fail. */
export const MAX_DEPTH = 200;
