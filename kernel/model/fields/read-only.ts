import { Field, type Column, type CommonOptions } from '../field.js';

/** A value the server works out as it reads (a family, a size, a page's counts): no column of its own, never written. */
export abstract class ReadOnlyField extends Field {
  constructor(options: CommonOptions = {}) {
    super({ ...options, readOnly: true });
  }

  columns(): Column[] {
    return [];
  }

  parse(): void {}
}
