/** Jinja's `loop` variable inside `{% for %}`. */
import { positional } from './args.js';
import { raise } from './errors.js';
import { eq } from './protocol.js';
import { MISSING, PyFunction, PyObject, tuple, type Kwargs, type Undefined } from './values.js';

export class LoopContext extends PyObject {
  readonly typeName = 'jinja2.runtime.LoopContext';
  index0 = -1;
  private lastChanged: unknown = MISSING;

  constructor(
    private readonly items: readonly unknown[],
    private readonly depth0: number,
    private readonly undefined: (hint: string) => Undefined,
    /** Renders the loop body again for `loop(children)` in a `recursive` loop. */
    private readonly recurse: ((iterable: unknown, depth0: number) => string) | null,
  ) {
    super();
  }

  attribute(name: string): unknown {
    const length = this.items.length;
    const i = this.index0;
    switch (name) {
      case 'index0':
        return i;
      case 'index':
        return i + 1;
      case 'revindex':
        return length - i;
      case 'revindex0':
        return length - i - 1;
      case 'first':
        return i === 0;
      case 'last':
        return i === length - 1;
      case 'length':
        return length;
      case 'depth':
        return this.depth0 + 1;
      case 'depth0':
        return this.depth0;
      case 'previtem':
        return i > 0 ? this.items[i - 1] : this.undefined('there is no previous item');
      case 'nextitem':
        return i < length - 1 ? this.items[i + 1] : this.undefined('there is no next item');
      case 'cycle':
        return new PyFunction('<bound method LoopContext.cycle>', (args, kwargs) => {
          positional('cycle', [], kwargs, 0, 0);
          if (args.length === 0) raise('TypeError', 'no items for cycling given');
          return args[i % args.length];
        });
      case 'changed':
        return new PyFunction('<bound method LoopContext.changed>', (args, kwargs) => {
          positional('changed', [], kwargs, 0, 0);
          const value = tuple(args);
          if (this.lastChanged !== MISSING && eq(this.lastChanged, value)) return false;
          this.lastChanged = value;
          return true;
        });
      default:
        return MISSING;
    }
  }

  override call(args: unknown[], kwargs: Kwargs): unknown {
    const [iterable] = positional('loop', args, kwargs, 1, 1);
    if (this.recurse === null) {
      raise('TypeError', "The loop must have the 'recursive' marker to be called recursively.");
    }
    return this.recurse(iterable, this.depth0 + 1);
  }

  repr(): string {
    return `<LoopContext ${this.index0 + 1}/${this.items.length}>`;
  }
}
