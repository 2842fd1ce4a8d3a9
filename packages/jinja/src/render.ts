/**
 * Renders a parsed template by walking its tree: statements write to an output buffer, expressions evaluate to Python
 * values (values.ts) through the operators, protocols and sandbox modules. Nothing here turns template text into
 * JavaScript (nunjucks' compiler does, with JavaScript semantics; this is why it is not used).
 */
import type * as A from './ast.js';
import { dictItems, newDict } from './dicts.js';
import type { Environment, Parsed } from './environment.js';
import { blocksOf, hasScopedBlock, readNames } from './analysis.js';
import { MemoryLimitError, PyError, raise, TemplateError } from './errors.js';
import { Frame, LoopSignal, Output, type TemplateState } from './frame.js';
import { MAX_DEPTH } from './limits.js';
import { LoopContext } from './loop.js';
import {
  allocationBudget,
  charge,
  chargeList,
  concatenated,
  DEFAULT_ALLOCATION_BYTES,
  entryBytes,
  ITEM_BYTES,
  joined,
  metered,
  type AllocationMeter,
} from './meter.js';
import { TemplateModule, TemplateReference } from './modules.js';
import { binary, unary } from './operators.js';
import { contains, eq, order, toList, truthy } from './protocol.js';
import { pyRepr, pyStr } from './python.js';
import { callValue, getattr, getitem, setattr, SliceValue } from './sandbox.js';
import { Scope } from './scope.js';
import { isDict, MISSING, PyFunction, tuple, type Kwargs } from './values.js';

export interface RenderOptions {
  load?(name: string): string | undefined;
  maxOutput?: number;
  meter?: AllocationMeter;
  printed?(text: string): void;
}

export class Renderer {
  private depth = 0;
  /** Modules imported without context, by name: Jinja imports a template once per render. */
  private readonly modules = new Map<string, TemplateModule>();

  private readonly globals: Scope;

  constructor(
    private readonly env: Environment,
    private readonly options: RenderOptions,
  ) {
    this.globals = env.globals;
  }

  render(parsed: Parsed, context: Record<string, unknown>): string {
    return metered(this.options.meter ?? allocationBudget(DEFAULT_ALLOCATION_BYTES), () => {
      const out = this.output();
      this.renderTemplate(parsed, new Scope(this.globals, context), out);
      return out.toString();
    });
  }

  /** What `{{ … }}` writes: the value's text, shown first to the `printed` check when there is one. */
  private print(value: unknown): string {
    const text = pyStr(value);
    this.options.printed?.(text);
    return text;
  }

  private output(): Output {
    return new Output(this.options.maxOutput);
  }

  /** Renders into `out` with the template's top-level scope inside `outer`; returns that scope (for its exports). */
  private renderTemplate(parsed: Parsed, outer: Scope, out: Output): Scope {
    const special = new Scope(outer);
    const root = new Scope(special);
    const state: TemplateState = { root, blocks: new Map(), parent: null };
    for (const [name, block] of blocksOf(parsed)) state.blocks.set(name, [block]);
    const frame = new Frame(state, true, true);
    special.set(
      'self',
      new TemplateReference((name) => (state.blocks.has(name) ? this.blockFunction(frame, name, 0, root) : null)),
    );
    let current: Parsed | null = parsed;
    while (current !== null) {
      this.execList(current, root, out, frame);
      current = state.parent;
      state.parent = null;
    }
    return root;
  }

  private nested<T>(f: () => T): T {
    if (this.depth >= MAX_DEPTH) raise('RecursionError', 'maximum recursion depth exceeded');
    this.depth++;
    try {
      return f();
    } finally {
      this.depth--;
    }
  }

  private load(name: unknown): Parsed | null {
    if (typeof name !== 'string') return null;
    const source = this.options.load?.(name);
    return source === undefined ? null : this.env.compile(source);
  }

  private loadOrFail(name: unknown): Parsed {
    const parsed = this.load(name);
    if (parsed === null) raise('TemplateNotFound', pyStr(name));
    return parsed;
  }

  private capture(body: A.NodeList, scope: Scope, frame: Frame): string {
    const out = this.output();
    this.execList(body, scope, out, frame);
    return out.toString();
  }

  private execList(list: A.NodeList, scope: Scope, out: Output, frame: Frame): void {
    for (const node of list.children) this.exec(node, scope, out, frame);
  }

  private exec(node: A.Stmt, scope: Scope, out: Output, frame: Frame): void {
    try {
      this.execNode(node, scope, out, frame);
    } catch (e) {
      throw located(e, node.lineno);
    }
  }

  private execNode(node: A.Stmt, scope: Scope, out: Output, frame: Frame): void {
    switch (node.typename) {
      case 'NodeList':
      case 'Root':
        return this.execList(node, scope, out, frame);
      case 'Output':
        if (frame.checkOutput && frame.state.parent !== null) return;
        for (const n of node.nodes) out.write(n.typename === 'TemplateData' ? n.value : this.print(this.eval(n, scope)));
        return;
      case 'If': {
        let branch: A.If | A.NodeList | null = node;
        while (branch !== null && branch.typename === 'If')
          branch = truthy(this.eval(branch.cond, scope)) ? branch.body : branch.else_;
        if (branch !== null) this.execList(branch, scope, out, frame);
        return;
      }
      case 'For':
        return this.execFor(node, scope, out, frame, this.eval(node.iter, scope), 0);
      case 'Assign':
        return this.assign(node.target, this.eval(node.value, scope), scope);
      case 'AssignBlock': {
        const body = this.capture(node.body, new Scope(scope), frame.detached());
        return this.assign(node.target, node.filter ? this.applyFilter(node.filter, body, scope) : body, scope);
      }
      case 'Macro':
        return scope.set(node.name, this.macro(node.name, node, scope, frame));
      case 'CallBlock': {
        const caller = this.macro(null, node, scope, frame);
        return out.write(pyStr(this.call(node.call, scope, caller)));
      }
      case 'FilterBlock':
        return out.write(
          pyStr(this.applyFilter(node.filter, this.capture(node.body, new Scope(scope), frame.inner()), scope)),
        );
      case 'With': {
        const inner = new Scope(scope);
        const values = node.values.map((v) => this.eval(v, scope));
        node.targets.forEach((t, i) => this.assign(t, values[i], inner));
        return this.execList(node.body, inner, out, frame.inner());
      }
      case 'Include':
        return this.include(node, scope, out);
      case 'Import':
        return scope.set(
          node.target.value,
          this.module(this.eval(node.template, scope), node.withContext === true ? scope : null),
        );
      case 'FromImport': {
        const name = this.eval(node.template, scope);
        const module = this.module(name, node.withContext === true ? scope : null);
        for (const n of node.names.children) {
          const [exported, alias] = n.typename === 'Pair' ? [n.key.value, n.value.value] : [n.value, n.value];
          const value = module.attribute(exported);
          const hint = `the template ${pyRepr(name)} (imported on line ${node.lineno + 1}) does not export the requested name ${pyRepr(exported)}`;
          scope.set(alias, value === MISSING ? this.env.undefined(hint) : value);
        }
        return;
      }
      case 'Block':
        // Once extends ran, the parent renders the blocks. A scoped block statement lets whichever block renders
        // there (the child's) see the local variables.
        if (!frame.toplevel || frame.state.parent === null) {
          out.write(this.renderBlock(frame, node.name, 0, node.scoped ? scope : frame.state.root));
        }
        return;
      case 'Extends': {
        if (frame.state.parent !== null) raise('TemplateRuntimeError', 'extended multiple times');
        const parent = this.loadOrFail(this.eval(node.template, scope));
        for (const [name, block] of blocksOf(parent)) {
          const blocks = frame.state.blocks.get(name);
          if (blocks) blocks.push(block);
          else frame.state.blocks.set(name, [block]);
        }
        frame.state.parent = parent;
        return;
      }
      case 'Autoescape':
        if (truthy(this.eval(node.value, scope))) raise('TemplateRuntimeError', 'autoescape is not supported');
        return this.execList(node.body, new Scope(scope), out, frame.inner());
      case 'ExprStmt':
        this.eval(node.node, scope);
        return;
      case 'Break':
      case 'Continue':
        throw new LoopSignal(node.typename);
    }
  }

  private execFor(node: A.For, scope: Scope, out: Output, frame: Frame, iterable: unknown, depth0: number): void {
    let items = toList(iterable);
    const test = node.test;
    if (test !== null) {
      chargeList(items.length);
      items = items.filter((item) => {
        const s = new Scope(scope);
        this.assign(node.target, item, s);
        return truthy(this.eval(test, s));
      });
    }
    if (items.length === 0) {
      if (node.else_) this.execList(node.else_, new Scope(scope), out, frame.inner());
      return;
    }
    const recurse = (it: unknown, depth: number) => {
      const o = this.output();
      this.nested(() => this.execFor(node, scope, o, frame, it, depth));
      return o.toString();
    };
    const loop = new LoopContext(items, depth0, (hint) => this.env.undefined(hint), node.recursive ? recurse : null);
    const extended = node.recursive || readNames(node.body).has('loop') || hasScopedBlock(node.body);
    const body = frame.inner();
    for (let i = 0; i < items.length; i++) {
      loop.index0 = i;
      const s = new Scope(scope);
      if (extended) s.set('loop', loop);
      this.assign(node.target, items[i], s);
      try {
        this.execList(node.body, s, out, body);
      } catch (e) {
        if (!(e instanceof LoopSignal)) throw e;
        if (e.kind === 'Break') break;
      }
    }
  }

  private assign(target: A.Target, value: unknown, scope: Scope): void {
    if (target.typename === 'Symbol') return scope.set(target.value, value);
    if (target.typename === 'NSRef') return setattr(scope.lookup(target.name), target.attr, value);
    const items = toList(value);
    if (items.length < target.items.length) {
      raise('ValueError', `not enough values to unpack (expected ${target.items.length}, got ${items.length})`);
    }
    if (items.length > target.items.length)
      raise('ValueError', `too many values to unpack (expected ${target.items.length})`);
    target.items.forEach((t, i) => this.assign(t, items[i], scope));
  }

  private include(node: A.Include, scope: Scope, out: Output): void {
    const name = this.eval(node.template, scope);
    const names = Array.isArray(name) ? name : [name];
    for (const candidate of names) {
      const parsed = this.load(candidate);
      if (parsed !== null) {
        this.nested(() => this.renderTemplate(parsed, node.withContext ? scope : this.globals, out));
        return;
      }
    }
    if (node.ignoreMissing) return;
    if (names.length === 1) raise('TemplateNotFound', pyStr(names[0]));
    chargeList(names.length);
    raise('TemplateNotFound', `none of the templates given were found: ${joined(names.map(pyStr), ', ')}`);
  }

  private module(name: unknown, context: Scope | null): TemplateModule {
    const cached = context === null && typeof name === 'string' ? this.modules.get(name) : undefined;
    if (cached !== undefined) return cached;
    const parsed = this.loadOrFail(name);
    const out = this.output();
    const root = this.nested(() => this.renderTemplate(parsed, context ?? this.globals, out));
    const module = new TemplateModule(pyStr(name), root.exports(), out.toString());
    if (context === null && typeof name === 'string') this.modules.set(name, module);
    return module;
  }

  private blockFunction(frame: Frame, name: string, index: number, context: Scope): PyFunction {
    return new PyFunction(`<BlockReference ${pyRepr(name)}>`, () => this.renderBlock(frame, name, index, context));
  }

  /** Renders the `index`th block of that name (0: the most derived) in `context` (the root, or the locals if scoped). */
  private renderBlock(frame: Frame, name: string, index: number, context: Scope): string {
    const chain = frame.state.blocks.get(name) ?? [];
    const block = chain[index];
    if (block.required && index === 0) raise('TemplateRuntimeError', `Required block ${pyRepr(name)} not found.`);
    const s = new Scope(context);
    const parent = chain.length > index + 1;
    s.set(
      'super',
      parent
        ? this.blockFunction(frame, name, index + 1, context)
        : this.env.undefined(`there is no parent block called ${pyRepr(name)}.`),
    );
    return this.nested(() => this.capture(block.body, s, frame.detached()));
  }

  /** A macro or a call block's `caller`, with Jinja's argument binding (jinja2.runtime.Macro). */
  /** `name` is null for a call block's caller (Jinja's anonymous macro). */
  private macro(name: string | null, sig: A.Signature, scope: Scope, frame: Frame): PyFunction {
    const refs = readNames(sig.body);
    const usesCaller = refs.has('caller');
    const catchKwargs = refs.has('kwargs') && !sig.args.includes('kwargs');
    const catchVarargs = refs.has('varargs') && !sig.args.includes('varargs');
    const count = sig.args.length;
    return new PyFunction(`<Macro ${name === null ? 'anonymous' : pyRepr(name)}>`, (args, passed) => {
      const kwargs = new Map(passed);
      const values: unknown[] = args.slice(0, count);
      let foundCaller = sig.args.includes('caller');
      if (values.length !== count) {
        foundCaller = false;
        for (const arg of sig.args.slice(values.length)) {
          values.push(kwargs.has(arg) ? kwargs.get(arg) : MISSING);
          kwargs.delete(arg);
          if (arg === 'caller') foundCaller = true;
        }
      }
      const local = new Scope(scope);
      if (usesCaller && !foundCaller) {
        local.set('caller', kwargs.get('caller') ?? this.env.undefined('No caller defined', null, 'caller'));
        kwargs.delete('caller');
      }
      if (catchKwargs) local.set('kwargs', newDict(kwargs));
      else if (kwargs.size > 0) {
        if (kwargs.has('caller')) {
          raise(
            'TypeError',
            `macro ${pyRepr(name)} was invoked with two values for the special caller argument. This is most likely a bug.`,
          );
        }
        raise('TypeError', `macro ${pyRepr(name)} takes no keyword argument ${pyRepr([...kwargs.keys()][0])}`);
      }
      if (catchVarargs) {
        chargeList(args.length - count);
        local.set('varargs', tuple(args.slice(count)));
      } else if (args.length > count) {
        raise('TypeError', `macro ${pyRepr(name)} takes not more than ${count} argument(s)`);
      }
      return this.nested(() => {
        sig.args.forEach((arg, i) => {
          const d = i - (count - sig.defaults.length);
          const missing =
            d >= 0
              ? this.eval(sig.defaults[d], local)
              : this.env.undefined(`parameter ${pyRepr(arg)} was not provided`, null, arg);
          local.set(arg, values[i] === MISSING ? missing : values[i]);
        });
        return this.capture(sig.body, local, frame.detached());
      });
    });
  }

  private args(node: A.CallArgs, scope: Scope): [unknown[], Kwargs] {
    const args = node.args.map((a) => this.eval(a, scope));
    if (node.dynArgs !== null) {
      // A loop, not push(...): a long list would overflow the stack as arguments.
      for (const a of toList(this.eval(node.dynArgs, scope))) {
        charge(ITEM_BYTES);
        args.push(a);
      }
    }
    const kwargs: Kwargs = new Map(node.kwargs.map((k) => [k.name, this.eval(k.value, scope)]));
    if (node.dynKwargs !== null) {
      const extra = this.eval(node.dynKwargs, scope);
      if (!isDict(extra)) raise('TypeError', 'argument after ** must be a mapping');
      for (const [k, v] of dictItems(extra)) {
        const name = pyStr(k);
        charge(entryBytes(name));
        kwargs.set(name, v);
      }
    }
    return [args, kwargs];
  }

  private call(node: A.Call, scope: Scope, caller?: PyFunction): unknown {
    const fn = this.eval(node.node, scope);
    const [args, kwargs] = this.args(node, scope);
    if (caller !== undefined) kwargs.set('caller', caller);
    return callValue(fn, args, kwargs);
  }

  private applyFilter(filter: A.Filter, value: unknown, scope: Scope): unknown {
    // In a filter block the innermost filter has no node: it takes the body.
    const input = filter.node === null ? value : this.applyFilter(filter.node as A.Filter, value, scope);
    const [args, kwargs] = this.args(filter, scope);
    return this.env.callFilter(filter.name, input, args, kwargs);
  }

  private eval(node: A.Expr, scope: Scope): unknown {
    switch (node.typename) {
      case 'Const':
        return node.value;
      case 'Symbol': {
        const value = scope.lookup(node.value);
        return value === MISSING ? this.env.undefined(null, null, node.value) : value;
      }
      case 'Tuple':
        chargeList(node.items.length);
        return tuple(node.items.map((n) => this.eval(n, scope)));
      case 'List':
        chargeList(node.items.length);
        return node.items.map((n) => this.eval(n, scope));
      case 'Dict':
        return newDict(node.items.map(({ key, value }) => [this.eval(key, scope), this.eval(value, scope)] as const));
      case 'Getattr':
        return getattr(this.env, this.eval(node.node, scope), node.attr);
      case 'Getitem':
        return getitem(this.env, this.eval(node.node, scope), this.subscript(node.arg, scope));
      case 'Slice':
        return this.subscript(node, scope);
      case 'Call':
        return this.call(node, scope);
      case 'Filter': {
        const [args, kwargs] = this.args(node, scope);
        return this.env.callFilter(node.name, node.node === null ? null : this.eval(node.node, scope), args, kwargs);
      }
      case 'Test': {
        const [args, kwargs] = this.args(node, scope);
        return this.env.callTest(node.name, this.eval(node.node, scope), args, kwargs);
      }
      case 'CondExpr':
        if (truthy(this.eval(node.test, scope))) return this.eval(node.expr1, scope);
        if (node.expr2 !== null) return this.eval(node.expr2, scope);
        return this.env.undefined(
          `the inline if-expression on line ${node.lineno + 1} evaluated to false and no else section was defined.`,
        );
      case 'And': {
        const left = this.eval(node.left, scope);
        return truthy(left) ? this.eval(node.right, scope) : left;
      }
      case 'Or': {
        const left = this.eval(node.left, scope);
        return truthy(left) ? left : this.eval(node.right, scope);
      }
      case 'Not':
        return !truthy(this.eval(node.node, scope));
      case 'Compare': {
        let left = this.eval(node.expr, scope);
        for (const { op, expr } of node.ops) {
          const right = this.eval(expr, scope);
          if (!compare(op, left, right)) return false;
          left = right;
        }
        return true;
      }
      case 'BinOp':
        return binary(node.op, this.eval(node.left, scope), this.eval(node.right, scope));
      case 'Concat':
        return concatenated(node.nodes.map((n) => pyStr(this.eval(n, scope))));
      case 'Unary':
        return unary(node.op, this.eval(node.node, scope));
    }
  }

  private subscript(node: A.Expr, scope: Scope): unknown {
    if (node.typename !== 'Slice') return this.eval(node, scope);
    const part = (n: A.Expr | null) => (n === null ? null : this.eval(n, scope));
    return new SliceValue(part(node.start), part(node.stop), part(node.step));
  }
}

function compare(op: A.CompareOperator, a: unknown, b: unknown): boolean {
  switch (op) {
    case 'eq':
      return eq(a, b);
    case 'ne':
      return !eq(a, b);
    case 'lt':
      return order('<', a, b);
    case 'lteq':
      return order('<=', a, b);
    case 'gt':
      return order('>', a, b);
    case 'gteq':
      return order('>=', a, b);
    case 'in':
      return contains(b, a);
    case 'notin':
      return !contains(b, a);
  }
}

/** An error escaping a statement, as a TemplateError naming the statement's line (the innermost one wins). */
function located(e: unknown, lineno: number): unknown {
  if (e instanceof LoopSignal || e instanceof TemplateError) return e;
  if (e instanceof PyError || e instanceof MemoryLimitError) return new TemplateError(e.message, lineno + 1);
  if (e instanceof RangeError) {
    const tooDeep = /call stack/i.test(e.message);
    return new TemplateError(tooDeep ? 'maximum recursion depth exceeded' : 'value too large', lineno + 1);
  }
  return new TemplateError(e instanceof Error ? e.message : String(e), lineno + 1);
}
