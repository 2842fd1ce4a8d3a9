/**
 * A filter that cannot apply to a model: `field` when a name or lookup does not resolve (a mistake in the
 * filter's shape), `value` when a value does not fit its field (no row can match it).
 */
export class FilterError extends Error {
  constructor(message: string, readonly kind: 'field' | 'value' = 'field') {
    super(message);
  }
}

/** A query-string value that cannot be used; becomes 400 `{param: [message]}`. */
export class ParamError extends Error {}
