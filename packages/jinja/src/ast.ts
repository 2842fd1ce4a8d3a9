/**
 * The template syntax tree. Node names follow Jinja's (jinja2/nodes.py). If, Import, FromImport, Extends, NodeList,
 * Root and Pair are instances of nunjucks' classes (its statement parsers build them); the others are plain objects
 * built by expressions.ts and parser.ts. The renderer reads both through these shapes.
 */
import type { BinaryOp } from './operators.js';
import type { Float } from './values.js';

interface Node<T extends string> {
  readonly typename: T;
  lineno: number;
  colno: number;
}

export interface Const extends Node<'Const'> {
  value: null | boolean | number | string | Float;
}
export interface Name extends Node<'Symbol'> {
  value: string;
}
export interface TupleExpr extends Node<'Tuple'> {
  items: Expr[];
}
export interface ListExpr extends Node<'List'> {
  items: Expr[];
}
export interface DictExpr extends Node<'Dict'> {
  items: { key: Expr; value: Expr }[];
}
export interface Getattr extends Node<'Getattr'> {
  node: Expr;
  attr: string;
}
export interface Getitem extends Node<'Getitem'> {
  node: Expr;
  arg: Expr;
}
export interface Slice extends Node<'Slice'> {
  start: Expr | null;
  stop: Expr | null;
  step: Expr | null;
}
export interface CallArgs {
  args: Expr[];
  kwargs: { name: string; value: Expr }[];
  dynArgs: Expr | null;
  dynKwargs: Expr | null;
}
export interface Call extends Node<'Call'>, CallArgs {
  node: Expr;
}
/** `node` is null in `{% filter %}` blocks and `{% set x | f %}`, where the body is filtered. */
export interface Filter extends Node<'Filter'>, CallArgs {
  node: Expr | null;
  name: string;
}
export interface Test extends Node<'Test'>, CallArgs {
  node: Expr;
  name: string;
}
export interface CondExpr extends Node<'CondExpr'> {
  test: Expr;
  expr1: Expr;
  expr2: Expr | null;
}
export interface Logic extends Node<'And' | 'Or'> {
  left: Expr;
  right: Expr;
}
export interface Not extends Node<'Not'> {
  node: Expr;
}
export type CompareOperator = 'eq' | 'ne' | 'lt' | 'lteq' | 'gt' | 'gteq' | 'in' | 'notin';
export interface Compare extends Node<'Compare'> {
  expr: Expr;
  ops: { op: CompareOperator; expr: Expr }[];
}
export interface BinOp extends Node<'BinOp'> {
  op: BinaryOp;
  left: Expr;
  right: Expr;
}
export interface Concat extends Node<'Concat'> {
  nodes: Expr[];
}
export interface Unary extends Node<'Unary'> {
  op: '-' | '+';
  node: Expr;
}

export type Expr =
  | Const
  | Name
  | TupleExpr
  | ListExpr
  | DictExpr
  | Getattr
  | Getitem
  | Slice
  | Call
  | Filter
  | Test
  | CondExpr
  | Logic
  | Not
  | Compare
  | BinOp
  | Concat
  | Unary;

/** `{% set ns.attr = ... %}`. */
export interface NSRef extends Node<'NSRef'> {
  name: string;
  attr: string;
}
export interface TupleTarget extends Node<'Tuple'> {
  items: Target[];
}
export type Target = Name | NSRef | TupleTarget;

export interface NodeList extends Node<'NodeList' | 'Root'> {
  children: Stmt[];
}
export interface TemplateData extends Node<'TemplateData'> {
  value: string;
}
export interface Output extends Node<'Output'> {
  nodes: (Expr | TemplateData)[];
}
export interface If extends Node<'If'> {
  cond: Expr;
  body: NodeList;
  else_: NodeList | If | null;
}
export interface For extends Node<'For'> {
  target: Target;
  iter: Expr;
  body: NodeList;
  else_: NodeList | null;
  test: Expr | null;
  recursive: boolean;
}
export interface Assign extends Node<'Assign'> {
  target: Target;
  value: Expr;
}
export interface AssignBlock extends Node<'AssignBlock'> {
  target: Target;
  filter: Filter | null;
  body: NodeList;
}
export interface Signature {
  args: string[];
  /** Defaults of the last `defaults.length` arguments. */
  defaults: Expr[];
  body: NodeList;
}
export interface Macro extends Node<'Macro'>, Signature {
  name: string;
}
export interface CallBlock extends Node<'CallBlock'>, Signature {
  call: Call;
}
export interface FilterBlock extends Node<'FilterBlock'> {
  filter: Filter;
  body: NodeList;
}
export interface With extends Node<'With'> {
  targets: Target[];
  values: Expr[];
  body: NodeList;
}
export interface Include extends Node<'Include'> {
  template: Expr;
  ignoreMissing: boolean;
  withContext: boolean;
}
export interface Import extends Node<'Import'> {
  template: Expr;
  target: Name;
  withContext: boolean | null;
}
export interface Pair extends Node<'Pair'> {
  key: Name;
  value: Name;
}
export interface FromImport extends Node<'FromImport'> {
  template: Expr;
  names: { children: (Name | Pair)[] };
  withContext: boolean | null;
}
export interface Block extends Node<'Block'> {
  name: string;
  body: NodeList;
  scoped: boolean;
  required: boolean;
}
export interface Extends extends Node<'Extends'> {
  template: Expr;
}
/** `{% autoescape value %}`: only a false value is supported (autoescaping is off). */
export interface Autoescape extends Node<'Autoescape'> {
  value: Expr;
  body: NodeList;
}
/** `{% do expr %}` (jinja2.ext.do). */
export interface ExprStmt extends Node<'ExprStmt'> {
  node: Expr;
}
/** `{% break %}`, `{% continue %}` (jinja2.ext.loopcontrols). */
export type LoopControl = Node<'Break' | 'Continue'>;

export type Stmt =
  | NodeList
  | Output
  | If
  | For
  | Assign
  | AssignBlock
  | Macro
  | CallBlock
  | FilterBlock
  | With
  | Include
  | Import
  | FromImport
  | Block
  | Extends
  | Autoescape
  | ExprStmt
  | LoopControl;
