/** What Jinja's compiler learns from the syntax tree before running it (jinja2/compiler.py, idtracking.py). */
import type * as A from './ast.js';
import { TemplateError } from './errors.js';

type Node = A.Expr | A.Stmt;

/** Jinja's compiler frame, as far as the checks below need it. */
interface CompileFrame {
  /** Under an `if` or an inline if-expression (a "soft" frame). */
  soft: boolean;
  /** At the top level or under an `if`: where extends may appear. */
  toplevel: boolean;
}

/**
 * Jinja's compile-time checks: every filter and test exists, and extends appears only at the top level or under an
 * `if`. Since Jinja 3.0 a filter or test used directly under an `if` or an inline if-expression is checked only when
 * it runs; loop, macro, block and similar bodies start a new frame and are checked again.
 */
export function check(root: Node, hasFilter: (name: string) => boolean, hasTest: (name: string) => boolean): void {
  const inner: CompileFrame = { soft: false, toplevel: false };
  const walk = (value: unknown, frame: CompileFrame): void => {
    if (Array.isArray(value)) {
      for (const v of value) walk(v, frame);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    if (!('typename' in value)) {
      for (const v of Object.values(value)) walk(v, frame);
      return;
    }
    const node = value as Node;
    switch (node.typename) {
      case 'If':
        return walk([node.cond, node.body, node.else_], { ...frame, soft: true });
      case 'CondExpr':
        return walk([node.test, node.expr1, node.expr2], { ...frame, soft: true });
      case 'For':
        walk(node.iter, frame);
        return walk([node.test, node.body, node.else_], inner);
      case 'CallBlock':
        checkCaller(node);
        walk(node.call, frame);
        return walk([node.defaults, node.body], inner);
      case 'With':
        walk(node.values, frame);
        return walk(node.body, inner);
      case 'Autoescape':
        walk(node.value, frame);
        return walk(node.body, inner);
      case 'Macro':
        checkCaller(node);
        return walk(Object.values(node), inner);
      case 'FilterBlock':
      case 'AssignBlock':
      case 'Block':
        return walk(Object.values(node), inner);
      case 'Extends':
        if (!frame.toplevel) throw new TemplateError('cannot use extend from a non top-level scope', node.lineno + 1);
        break;
      case 'Filter':
      case 'Test': {
        const known = node.typename === 'Filter' ? hasFilter(node.name) : hasTest(node.name);
        if (!known && !frame.soft)
          throw new TemplateError(`No ${node.typename.toLowerCase()} named '${node.name}'.`, node.lineno + 1);
        break;
      }
    }
    for (const v of Object.values(node)) walk(v, frame);
  };
  walk(root, { soft: false, toplevel: true });
}

/** A body that uses `caller` may list it as a parameter only with a default. */
function checkCaller(sig: A.Macro | A.CallBlock): void {
  const i = sig.args.indexOf('caller');
  if (i >= 0 && i < sig.args.length - sig.defaults.length && readNames(sig.body).has('caller')) {
    throw new TemplateError(
      'When defining macros or call blocks the special "caller" argument must be omitted or be given a default.',
      sig.lineno + 1,
    );
  }
}

const reads = new WeakMap<object, Set<string>>();

/**
 * The names a body reads (not counting assignment targets or nested blocks), as Jinja's find_undeclared: a macro gets
 * `caller`, `kwargs` and `varargs`, and a loop body `loop`, only if it reads them, which templates it includes see.
 */
export function readNames(body: A.NodeList): Set<string> {
  let names = reads.get(body);
  if (names === undefined) {
    const into = new Set<string>();
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (typeof node === 'object' && node !== null) {
        const n = node as Node;
        if (n.typename === 'Symbol') into.add(n.value);
        else if (n.typename !== 'Block') {
          for (const [key, v] of Object.entries(node)) if (key !== 'target' && key !== 'targets') walk(v);
        }
      }
    };
    walk(body.children);
    reads.set(body, (names = into));
  }
  return names;
}

const scopedBlocks = new WeakMap<A.NodeList, boolean>();

/** A scoped block inside a loop makes Jinja define `loop` for it (asked each time the loop runs: known once a body). */
export function hasScopedBlock(body: A.NodeList): boolean {
  let found = scopedBlocks.get(body);
  if (found === undefined) scopedBlocks.set(body, (found = holdsScopedBlock(body)));
  return found;
}

function holdsScopedBlock(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(holdsScopedBlock);
  if (typeof node !== 'object' || node === null) return false;
  if ((node as A.Block).typename === 'Block' && (node as A.Block).scoped) return true;
  return Object.values(node).some(holdsScopedBlock);
}

const blocks = new WeakMap<A.NodeList, ReadonlyMap<string, A.Block>>();

/** A template's `{% block %}`s by name, found once a parsed template (each render of it asks). */
export function blocksOf(template: A.NodeList): ReadonlyMap<string, A.Block> {
  let found = blocks.get(template);
  if (found === undefined) blocks.set(template, (found = collectBlocks(template, new Map())));
  return found;
}

/** The template's `{% block %}`s by name, wherever they are nested. */
function collectBlocks(node: unknown, into: Map<string, A.Block>): Map<string, A.Block> {
  if (Array.isArray(node)) for (const n of node) collectBlocks(n, into);
  else if (typeof node === 'object' && node !== null && 'typename' in node) {
    const block = node as A.Block;
    if (block.typename === 'Block') {
      if (into.has(block.name)) throw new TemplateError(`block '${block.name}' defined twice`, block.lineno + 1);
      into.set(block.name, block);
    }
    for (const v of Object.values(node)) if (typeof v === 'object') collectBlocks(v, into);
  }
  return into;
}
