/** What rendering threads through the statements: the output buffer and Jinja's compiler frames. */
import type * as A from './ast.js';
import type { Parsed } from './environment.js';
import { TemplateError } from './errors.js';
import { charge, chargeStr, ITEM_BYTES } from './meter.js';
import type { Scope } from './scope.js';

/** A render's output, or a captured body's: it fails as soon as it passes maxOutput. */
export class Output {
  private readonly parts: string[] = [];
  private length = 0;

  constructor(private readonly limit: number | undefined) {}

  write(s: string): void {
    if (s === '') return;
    this.length += s.length;
    if (this.limit !== undefined && this.length > this.limit)
      throw new TemplateError(`Output exceeds ${this.limit} characters`);
    charge(ITEM_BYTES);
    this.parts.push(s);
  }

  toString(): string {
    if (this.parts.length === 1) return this.parts[0];
    // The join copies every part: a macro's or a captured block's output is a new string each time.
    chargeStr(this.length);
    return this.parts.join('');
  }
}

/** One template render: its top-level scope, its block stacks (child blocks first), its parent once extends ran. */
export interface TemplateState {
  root: Scope;
  blocks: Map<string, A.Block[]>;
  parent: Parsed | null;
}

/** Where a statement runs, as Jinja's compiler frames tell. */
export class Frame {
  constructor(
    readonly state: TemplateState,
    /** In the template's own flow (not a macro, block or `{% set %}` body): output stops once extends ran. */
    readonly checkOutput: boolean,
    /** At the top level or under an `if`: where extends may appear and blocks render in place. */
    readonly toplevel: boolean,
  ) {}

  /** A loop, with or filter body. */
  inner(): Frame {
    return new Frame(this.state, this.checkOutput, false);
  }

  /** A macro, block or `{% set %}` body, whose output is always kept. */
  detached(): Frame {
    return new Frame(this.state, false, false);
  }
}

/** `{% break %}` and `{% continue %}`, thrown to the loop. */
export class LoopSignal {
  constructor(readonly kind: 'Break' | 'Continue') {}
}
