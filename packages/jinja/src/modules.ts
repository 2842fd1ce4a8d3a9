/** The objects templates get for `{% import %}` (a module) and `self` (a reference to the blocks). */
import { pyRepr } from './python.js';
import { MISSING, PyObject, type PyFunction } from './values.js';

export class TemplateModule extends PyObject {
  readonly typeName = 'jinja2.environment.TemplateModule';

  constructor(
    private readonly name: string,
    private readonly exported: Map<string, unknown>,
    private readonly body: string,
  ) {
    super();
  }

  attribute(name: string): unknown {
    return this.exported.has(name) ? this.exported.get(name) : MISSING;
  }

  repr(): string {
    return `<TemplateModule ${pyRepr(this.name)}>`;
  }

  override str(): string {
    return this.body;
  }
}

/** Jinja's `self`: `self.blockname()` renders a block. */
export class TemplateReference extends PyObject {
  readonly typeName = 'jinja2.runtime.TemplateReference';

  constructor(private readonly block: (name: string) => PyFunction | null) {
    super();
  }

  attribute(name: string): unknown {
    return this.block(name) ?? MISSING;
  }

  repr(): string {
    return '<TemplateReference None>';
  }
}
