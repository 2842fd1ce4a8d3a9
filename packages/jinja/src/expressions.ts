/**
 * Jinja2's expression grammar (jinja2/parser.py) on top of nunjucks' Parser, whose own expressions differ from Jinja's
 * (operator precedence, `~`, `is`, `in`, tuples, slices, `True`/`None`, filter arguments). Also the token plumbing
 * Jinja's grammar needs: two tokens of lookahead (nunjucks keeps one) and errors as TemplateErrors with the line.
 */
import type * as A from './ast.js';
import { TemplateError } from './errors.js';
import { Parser, T, type NodeBase, type Token } from './nunjucks.js';
import type { BinaryOp } from './operators.js';
import { makeFloat } from './values.js';

const COMPARE = new Map<string, A.CompareOperator>([
  ['==', 'eq'],
  ['!=', 'ne'],
  ['<', 'lt'],
  ['<=', 'lteq'],
  ['>', 'gt'],
  ['>=', 'gteq'],
]);
/** nunjucks' parser looks for whitespace-control dashes in token values; the lexer has done whitespace control. */
const TAGS = {
  BLOCK_START: '{%',
  BLOCK_END: '%}',
  VARIABLE_START: '{{',
  VARIABLE_END: '}}',
  COMMENT_START: '{#',
  COMMENT_END: '#}',
};

export abstract class ExpressionParser extends Parser {
  /** Pushed-back tokens, last on top: Jinja's grammar looks two tokens ahead, nunjucks' keeps one. */
  private readonly pending: (Token | null)[] = [];
  private lastLine = 0;

  constructor(tokens: Token[]) {
    let i = 0;
    super({ nextToken: () => tokens[i++] ?? null, tags: TAGS });
  }

  override nextToken(): Token | null {
    const tok = this.pending.length > 0 ? (this.pending.pop() ?? null) : this.tokens.nextToken();
    if (tok) this.lastLine = tok.lineno;
    return tok;
  }

  override peekToken(): Token | null {
    const tok = this.nextToken();
    this.pushToken(tok);
    return tok;
  }

  override pushToken(tok: Token | null): void {
    this.pending.push(tok);
  }

  override fail(msg: string, lineno?: number): never {
    throw new TemplateError(msg, (lineno ?? this.peekToken()?.lineno ?? this.lastLine) + 1);
  }

  override expect(type: string): Token {
    const tok = this.nextToken();
    if (tok === null) this.fail(`unexpected end of template, expected ${type}`, this.lastLine);
    if (tok.type !== type) this.fail(`expected token ${type}, got '${tok.value}'`, tok.lineno);
    return tok;
  }

  /** Jinja allows a colon before the `%}` of a statement that opens a body (`{% for x in y: %}`, `{% else: %}`). */
  override advanceAfterBlockEnd(name?: string): Token {
    if (name === undefined && this.atName('else')) name = this.expectName().value;
    if (name !== undefined) this.skip(T.TOKEN_COLON);
    return super.advanceAfterBlockEnd(name);
  }

  /** The token after the current one. */
  protected look(): Token | null {
    const first = this.nextToken();
    const second = this.peekToken();
    this.pushToken(first);
    return second;
  }

  protected at(type: string, value?: string): boolean {
    const tok = this.peekToken();
    return tok !== null && tok.type === type && (value === undefined || tok.value === value);
  }

  protected atName(value?: string): boolean {
    return this.at(T.TOKEN_SYMBOL, value);
  }

  protected atOp(value: string): boolean {
    return this.at(T.TOKEN_OPERATOR, value);
  }

  protected pos(): { lineno: number; colno: number } {
    const tok = this.peekToken();
    return { lineno: tok?.lineno ?? this.lastLine, colno: tok?.colno ?? 0 };
  }

  protected expectName(value?: string): Token {
    const tok = this.expect(T.TOKEN_SYMBOL);
    if (value !== undefined && tok.value !== value) this.fail(`expected '${value}', got '${tok.value}'`, tok.lineno);
    return tok;
  }

  protected parseAssignTarget(opts: { extraEndRules?: string[]; withNamespace?: boolean } = {}): A.Target {
    const where = this.pos();
    if (opts.withNamespace && this.atName() && this.look()?.value === '.') {
      const name = this.expectName().value;
      this.nextToken();
      return { typename: 'NSRef', ...where, name, attr: this.expectName().value };
    }
    const target = this.parseTuple({ simplified: true, extraEndRules: opts.extraEndRules });
    this.assertTarget(target);
    return target;
  }

  private assertTarget(node: A.Expr | A.Target): asserts node is A.Target {
    if (node.typename === 'Tuple') node.items.forEach((n) => this.assertTarget(n));
    else if (node.typename !== 'Symbol') this.fail(`can't assign to '${node.typename.toLowerCase()}'`, node.lineno);
  }

  /** nunjucks' if, import and extends parsers read their expressions with parseExpression. */
  override parseExpression(): NodeBase {
    return this.expr();
  }

  protected expr(withCondexpr = true): A.Expr {
    return withCondexpr ? this.parseCondexpr() : this.parseOr();
  }

  private parseCondexpr(): A.Expr {
    let where = this.pos();
    let expr1 = this.parseOr();
    while (this.skipSymbol('if')) {
      const test = this.parseOr();
      const expr2 = this.skipSymbol('else') ? this.parseCondexpr() : null;
      expr1 = { typename: 'CondExpr', ...where, test, expr1, expr2 };
      where = this.pos();
    }
    return expr1;
  }

  private parseOr(): A.Expr {
    let left = this.parseAnd();
    while (this.skipSymbol('or'))
      left = { typename: 'Or', lineno: left.lineno, colno: left.colno, left, right: this.parseAnd() };
    return left;
  }

  private parseAnd(): A.Expr {
    let left = this.parseNot();
    while (this.skipSymbol('and'))
      left = { typename: 'And', lineno: left.lineno, colno: left.colno, left, right: this.parseNot() };
    return left;
  }

  private parseNot(): A.Expr {
    if (this.atName('not')) {
      const where = this.pos();
      this.nextToken();
      return { typename: 'Not', ...where, node: this.parseNot() };
    }
    return this.parseCompare();
  }

  private parseCompare(): A.Expr {
    const where = this.pos();
    const expr = this.parseMath1();
    const ops: A.Compare['ops'] = [];
    for (;;) {
      const tok = this.peekToken();
      const op = tok?.type === T.TOKEN_OPERATOR ? COMPARE.get(tok.value) : undefined;
      if (op !== undefined) {
        this.nextToken();
        ops.push({ op, expr: this.parseMath1() });
      } else if (this.skipSymbol('in')) {
        ops.push({ op: 'in', expr: this.parseMath1() });
      } else if (this.atName('not') && this.look()?.type === T.TOKEN_SYMBOL && this.look()?.value === 'in') {
        this.nextToken();
        this.nextToken();
        ops.push({ op: 'notin', expr: this.parseMath1() });
      } else break;
    }
    return ops.length === 0 ? expr : { typename: 'Compare', ...where, expr, ops };
  }

  private binary(next: () => A.Expr, operators: string[]): A.Expr {
    let left = next.call(this);
    for (;;) {
      const tok = this.peekToken();
      if (tok?.type !== T.TOKEN_OPERATOR || !operators.includes(tok.value)) return left;
      this.nextToken();
      left = {
        typename: 'BinOp',
        lineno: left.lineno,
        colno: left.colno,
        op: tok.value as BinaryOp,
        left,
        right: next.call(this),
      };
    }
  }

  private parseMath1(): A.Expr {
    return this.binary(this.parseConcat, ['+', '-']);
  }

  private parseConcat(): A.Expr {
    const where = this.pos();
    const nodes = [this.parseMath2()];
    while (this.skip(T.TOKEN_TILDE)) nodes.push(this.parseMath2());
    return nodes.length === 1 ? nodes[0] : { typename: 'Concat', ...where, nodes };
  }

  private parseMath2(): A.Expr {
    return this.binary(this.parsePow, ['*', '/', '//', '%']);
  }

  private parsePow(): A.Expr {
    return this.binary(() => this.parseUnary(), ['**']);
  }

  private parseUnary(withFilter = true): A.Expr {
    const where = this.pos();
    let node: A.Expr;
    if (this.atOp('-') || this.atOp('+')) {
      const op = this.nextToken()?.value === '-' ? '-' : '+';
      node = { typename: 'Unary', ...where, op, node: this.parseUnary(false) };
    } else {
      node = this.primary();
    }
    node = this.parsePostfix(node);
    return withFilter ? this.parseFilterExpr(node) : node;
  }

  /** nunjucks' from-import parser reads its names with parsePrimary. */
  override parsePrimary(): NodeBase {
    return this.primary();
  }

  private primary(): A.Expr {
    const tok = this.nextToken();
    if (tok === null) this.fail('unexpected end of template, expected an expression', this.lastLine);
    const where = { lineno: tok.lineno, colno: tok.colno };
    const konst = (value: A.Const['value']): A.Const => ({ typename: 'Const', ...where, value });
    let node: A.Expr;
    switch (tok.type) {
      case T.TOKEN_SYMBOL:
        if (['true', 'false', 'True', 'False'].includes(tok.value))
          node = konst(tok.value === 'true' || tok.value === 'True');
        else if (tok.value === 'none' || tok.value === 'None') node = konst(null);
        else node = { typename: 'Symbol', ...where, value: tok.value };
        break;
      case T.TOKEN_STRING: {
        let value = tok.value;
        while (this.at(T.TOKEN_STRING)) value += this.nextToken()?.value ?? '';
        node = konst(value);
        break;
      }
      case T.TOKEN_INT:
        node = konst(Number(tok.value));
        break;
      case T.TOKEN_FLOAT:
        node = konst(makeFloat(Number(tok.value)));
        break;
      case T.TOKEN_LEFT_PAREN:
        node = this.parseTuple({ explicitParentheses: true });
        this.expect(T.TOKEN_RIGHT_PAREN);
        break;
      case T.TOKEN_LEFT_BRACKET:
        node = { typename: 'List', ...where, items: this.parseItems(T.TOKEN_RIGHT_BRACKET, () => this.expr()) };
        break;
      case T.TOKEN_LEFT_CURLY:
        node = {
          typename: 'Dict',
          ...where,
          items: this.parseItems(T.TOKEN_RIGHT_CURLY, () => {
            const key = this.expr();
            this.expect(T.TOKEN_COLON);
            return { key, value: this.expr() };
          }),
        };
        break;
      default:
        this.fail(`unexpected '${tok.value}'`, tok.lineno);
    }
    return node;
  }

  /** Comma-separated items up to `close` (consumed); a trailing comma is allowed. */
  private parseItems<I>(close: string, item: () => I): I[] {
    const items: I[] = [];
    while (!this.at(close)) {
      if (items.length > 0) this.expect(T.TOKEN_COMMA);
      if (this.at(close)) break;
      items.push(item());
    }
    this.expect(close);
    return items;
  }

  protected parseTuple(
    opts: {
      simplified?: boolean;
      withCondexpr?: boolean;
      extraEndRules?: string[];
      explicitParentheses?: boolean;
    } = {},
  ): A.Expr {
    const where = this.pos();
    const parse = opts.simplified ? () => this.primary() : () => this.expr(opts.withCondexpr ?? true);
    const items: A.Expr[] = [];
    let isTuple = false;
    for (;;) {
      if (items.length > 0) this.expect(T.TOKEN_COMMA);
      if (this.isTupleEnd(opts.extraEndRules)) break;
      items.push(parse());
      if (!this.at(T.TOKEN_COMMA)) break;
      isTuple = true;
    }
    if (!isTuple) {
      if (items.length > 0) return items[0];
      if (!opts.explicitParentheses)
        this.fail(`Expected an expression, got '${this.peekToken()?.value ?? 'end of template'}'`);
    }
    return { typename: 'Tuple', ...where, items };
  }

  private isTupleEnd(extraEndRules: string[] = []): boolean {
    const tok = this.peekToken();
    if (tok === null) return false;
    if ([T.TOKEN_VARIABLE_END, T.TOKEN_BLOCK_END, T.TOKEN_RIGHT_PAREN].includes(tok.type)) return true;
    return tok.type === T.TOKEN_SYMBOL && extraEndRules.includes(tok.value);
  }

  private parsePostfix(node: A.Expr): A.Expr {
    for (;;) {
      if (this.atOp('.') || this.at(T.TOKEN_LEFT_BRACKET)) node = this.parseSubscript(node);
      else if (this.at(T.TOKEN_LEFT_PAREN)) node = this.parseCall(node);
      else return node;
    }
  }

  private parseFilterExpr(node: A.Expr): A.Expr {
    for (;;) {
      if (this.at(T.TOKEN_PIPE)) node = this.parseFilter(node) ?? node;
      else if (this.atName('is')) node = this.parseTest(node);
      else if (this.at(T.TOKEN_LEFT_PAREN)) node = this.parseCall(node);
      else return node;
    }
  }

  private parseSubscript(node: A.Expr): A.Expr {
    const tok = this.nextToken() as Token;
    const where = { lineno: tok.lineno, colno: tok.colno };
    if (tok.type === T.TOKEN_OPERATOR) {
      const attr = this.nextToken();
      if (attr?.type === T.TOKEN_SYMBOL) return { typename: 'Getattr', ...where, node, attr: attr.value };
      if (attr?.type !== T.TOKEN_INT) this.fail('expected name or number', attr?.lineno);
      return { typename: 'Getitem', ...where, node, arg: { typename: 'Const', ...where, value: Number(attr.value) } };
    }
    const args: A.Expr[] = [];
    while (!this.at(T.TOKEN_RIGHT_BRACKET)) {
      if (args.length > 0) this.expect(T.TOKEN_COMMA);
      args.push(this.parseSubscribed());
    }
    this.expect(T.TOKEN_RIGHT_BRACKET);
    const arg: A.Expr = args.length === 1 ? args[0] : { typename: 'Tuple', ...where, items: args };
    return { typename: 'Getitem', ...where, node, arg };
  }

  private parseSubscribed(): A.Expr {
    const where = this.pos();
    const parts: (A.Expr | null)[] = [];
    if (this.skip(T.TOKEN_COLON)) parts.push(null);
    else {
      const node = this.expr();
      if (!this.skip(T.TOKEN_COLON)) return node;
      parts.push(node);
    }
    const optional = () => (this.at(T.TOKEN_RIGHT_BRACKET) || this.at(T.TOKEN_COMMA) ? null : this.expr());
    parts.push(this.at(T.TOKEN_COLON) ? null : optional());
    parts.push(this.skip(T.TOKEN_COLON) ? optional() : null);
    return { typename: 'Slice', ...where, start: parts[0], stop: parts[1], step: parts[2] };
  }

  private parseCallArgs(): A.CallArgs {
    const open = this.expect(T.TOKEN_LEFT_PAREN);
    const out: A.CallArgs = { args: [], kwargs: [], dynArgs: null, dynKwargs: null };
    const ensure = (ok: boolean) => {
      if (!ok) this.fail('invalid syntax for function call expression', open.lineno);
    };
    let requireComma = false;
    while (!this.at(T.TOKEN_RIGHT_PAREN)) {
      if (requireComma) {
        this.expect(T.TOKEN_COMMA);
        if (this.at(T.TOKEN_RIGHT_PAREN)) break;
      }
      if (this.atOp('*')) {
        ensure(out.dynArgs === null && out.dynKwargs === null);
        this.nextToken();
        out.dynArgs = this.expr();
      } else if (this.atOp('**')) {
        ensure(out.dynKwargs === null);
        this.nextToken();
        out.dynKwargs = this.expr();
      } else if (this.atName() && this.look()?.type === T.TOKEN_OPERATOR && this.look()?.value === '=') {
        ensure(out.dynKwargs === null);
        const name = this.expectName().value;
        this.nextToken();
        out.kwargs.push({ name, value: this.expr() });
      } else {
        ensure(out.dynArgs === null && out.dynKwargs === null && out.kwargs.length === 0);
        out.args.push(this.expr());
      }
      requireComma = true;
    }
    this.expect(T.TOKEN_RIGHT_PAREN);
    return out;
  }

  private parseCall(node: A.Expr): A.Call {
    const where = this.pos();
    return { typename: 'Call', ...where, node, ...this.parseCallArgs() };
  }

  private dottedName(): string {
    let name = this.expectName().value;
    while (this.skipValue(T.TOKEN_OPERATOR, '.')) name += '.' + this.expectName().value;
    return name;
  }

  /** `|f(x)|g` applied to `node`, or null if there is no filter. `node` is null in filter blocks (and `startInline`). */
  protected parseFilter(node: A.Expr | null, startInline = false): A.Filter | null {
    let input = node;
    let out: A.Filter | null = null;
    while (startInline || this.skip(T.TOKEN_PIPE)) {
      startInline = false;
      const where = this.pos();
      const name = this.dottedName();
      const args = this.at(T.TOKEN_LEFT_PAREN)
        ? this.parseCallArgs()
        : { args: [], kwargs: [], dynArgs: null, dynKwargs: null };
      input = out = { typename: 'Filter', ...where, node: input, name, ...args };
    }
    return out;
  }

  private parseTest(node: A.Expr): A.Expr {
    const where = this.pos();
    this.expectName('is');
    const negated = this.skipSymbol('not');
    const name = this.dottedName();
    let args: A.CallArgs = { args: [], kwargs: [], dynArgs: null, dynKwargs: null };
    const tok = this.peekToken();
    if (this.at(T.TOKEN_LEFT_PAREN)) args = this.parseCallArgs();
    else if (
      tok !== null &&
      [T.TOKEN_SYMBOL, T.TOKEN_STRING, T.TOKEN_INT, T.TOKEN_FLOAT, T.TOKEN_LEFT_BRACKET, T.TOKEN_LEFT_CURLY].includes(
        tok.type,
      ) &&
      !(tok.type === T.TOKEN_SYMBOL && ['else', 'or', 'and'].includes(tok.value))
    ) {
      if (tok.type === T.TOKEN_SYMBOL && tok.value === 'is') this.fail('You cannot chain multiple tests with is');
      args.args = [this.parsePostfix(this.primary())];
    }
    const test: A.Test = { typename: 'Test', ...where, node, name, ...args };
    return negated ? { typename: 'Not', ...where, node: test } : test;
  }
}
