/**
 * Jinja2's statements on top of nunjucks' Parser: its block machinery (parseUntilBlocks, advanceAfterBlockEnd) and
 * its if, import, from-import and extends statements are Jinja's and are kept; the others are ported from
 * jinja2/parser.py, as nunjucks lacks `{% set ns.attr %}`, loop filters, `{% with %}`, block assignments with filters,
 * call blocks with arguments and Jinja's macro signatures.
 */
import type * as A from './ast.js';
import { ExpressionParser } from './expressions.js';
import { T, type NodeBase, type Token } from './nunjucks.js';

export interface ParseOptions {
  loopControls: boolean;
  doStatement: boolean;
}

class JinjaParser extends ExpressionParser {
  constructor(
    tokens: Token[],
    private readonly options: ParseOptions,
  ) {
    super(tokens);
  }

  override parseNodes(): NodeBase[] {
    const out: A.Stmt[] = [];
    for (let tok = this.nextToken(); tok; tok = this.nextToken()) {
      const where = { lineno: tok.lineno, colno: tok.colno };
      if (tok.type === T.TOKEN_DATA) {
        out.push({ typename: 'Output', ...where, nodes: [{ typename: 'TemplateData', ...where, value: tok.value }] });
      } else if (tok.type === T.TOKEN_BLOCK_START) {
        const node = this.parseStatement() as A.Stmt | null;
        if (node === null) break;
        out.push(node);
      } else if (tok.type === T.TOKEN_VARIABLE_START) {
        const expr = this.parseTuple();
        this.expect(T.TOKEN_VARIABLE_END);
        out.push({ typename: 'Output', ...where, nodes: [expr] });
      } else {
        this.fail(`unexpected '${tok.value}'`, tok.lineno);
      }
    }
    return out;
  }

  override parseStatement(): NodeBase | null {
    const tok = this.peekToken();
    if (tok === null || tok.type !== T.TOKEN_SYMBOL) this.fail('tag name expected');
    return this.breakOnBlocks?.includes(tok.value) ? null : this.statement(tok);
  }

  private statement(tok: Token): A.Stmt {
    const where = { lineno: tok.lineno, colno: tok.colno };
    switch (tok.value) {
      case 'for':
        return this.parseFor();
      case 'if':
        return this.parseIf() as A.If;
      case 'block':
        return this.parseBlock();
      case 'extends':
        return this.parseExtends() as A.Extends;
      case 'print': {
        this.nextToken();
        const expr = this.parseTuple();
        this.advanceAfterBlockEnd('print');
        return { typename: 'Output', ...where, nodes: [expr] };
      }
      case 'macro':
        return this.parseMacro();
      case 'call':
        return this.parseCallBlock();
      case 'set':
        return this.parseSet();
      case 'filter':
        return this.parseFilterBlock();
      case 'include':
        return this.parseInclude();
      case 'import':
        return this.parseImport() as A.Import;
      case 'from':
        return this.parseFrom() as A.FromImport;
      case 'with':
        return this.parseWith();
      case 'autoescape': {
        this.nextToken();
        const value = this.expr();
        this.advanceAfterBlockEnd('autoescape');
        const body = this.bodyUntil('endautoescape');
        this.advanceAfterBlockEnd();
        return { typename: 'Autoescape', ...where, value, body };
      }
      case 'do':
        if (!this.options.doStatement) break;
        this.nextToken();
        return this.finish('do', { typename: 'ExprStmt', ...where, node: this.parseTuple() });
      case 'break':
      case 'continue':
        if (!this.options.loopControls) break;
        this.nextToken();
        return this.finish(tok.value, { typename: tok.value === 'break' ? 'Break' : 'Continue', ...where });
    }
    this.fail(`Encountered unknown tag '${tok.value}'.`, tok.lineno);
  }

  private finish<N extends A.Stmt>(tag: string, node: N): N {
    this.advanceAfterBlockEnd(tag);
    return node;
  }

  private parseFor(): A.For {
    const where = this.pos();
    this.expectName('for');
    const target = this.parseAssignTarget({ extraEndRules: ['in'] });
    this.expectName('in');
    const iter = this.parseTuple({ withCondexpr: false, extraEndRules: ['recursive'] });
    const test = this.skipSymbol('if') ? this.expr() : null;
    const recursive = this.skipSymbol('recursive');
    this.advanceAfterBlockEnd('for');
    const body = this.bodyUntil('endfor', 'else');
    let else_: A.NodeList | null = null;
    if (this.atName('else')) {
      this.advanceAfterBlockEnd();
      else_ = this.bodyUntil('endfor');
    }
    this.advanceAfterBlockEnd();
    return { typename: 'For', ...where, target, iter, body, else_, test, recursive };
  }

  private parseBlock(): A.Block {
    const where = this.pos();
    this.expectName('block');
    const name = this.expectName().value;
    if (this.atOp('-'))
      this.fail(
        'Block names in Jinja have to be valid Python identifiers and may not contain hyphens, use an underscore instead.',
      );
    const scoped = this.skipSymbol('scoped');
    const required = this.skipSymbol('required');
    this.advanceAfterBlockEnd('block');
    const body = this.bodyUntil('endblock');
    this.expectName('endblock');
    this.skipSymbol(name);
    this.advanceAfterBlockEnd('endblock');
    return { typename: 'Block', ...where, name, body, scoped, required };
  }

  private parseSignature(): { args: string[]; defaults: A.Expr[] } {
    const args: string[] = [];
    const defaults: A.Expr[] = [];
    this.expect(T.TOKEN_LEFT_PAREN);
    while (!this.at(T.TOKEN_RIGHT_PAREN)) {
      if (args.length > 0) this.expect(T.TOKEN_COMMA);
      args.push(this.expectName().value);
      if (this.skipValue(T.TOKEN_OPERATOR, '=')) defaults.push(this.expr());
      else if (defaults.length > 0) this.fail('non-default argument follows default argument');
    }
    this.expect(T.TOKEN_RIGHT_PAREN);
    return { args, defaults };
  }

  private parseMacro(): A.Macro {
    const where = this.pos();
    this.expectName('macro');
    const name = this.expectName().value;
    const signature = this.parseSignature();
    this.advanceAfterBlockEnd('macro');
    const body = this.bodyUntil('endmacro');
    this.advanceAfterBlockEnd();
    return { typename: 'Macro', ...where, name, ...signature, body };
  }

  private parseCallBlock(): A.CallBlock {
    const where = this.pos();
    this.expectName('call');
    const signature = this.at(T.TOKEN_LEFT_PAREN) ? this.parseSignature() : { args: [], defaults: [] };
    const call = this.parseExpression() as A.Expr;
    if (call.typename !== 'Call') this.fail('expected call', where.lineno);
    this.advanceAfterBlockEnd('call');
    const body = this.bodyUntil('endcall');
    this.advanceAfterBlockEnd();
    return { typename: 'CallBlock', ...where, call, ...signature, body };
  }

  private parseSet(): A.Assign | A.AssignBlock {
    const where = this.pos();
    this.expectName('set');
    const target = this.parseAssignTarget({ withNamespace: true });
    if (this.skipValue(T.TOKEN_OPERATOR, '=')) {
      return this.finish('set', { typename: 'Assign', ...where, target, value: this.parseTuple() });
    }
    const filter = this.parseFilter(null);
    this.advanceAfterBlockEnd('set');
    const body = this.bodyUntil('endset');
    this.advanceAfterBlockEnd();
    return { typename: 'AssignBlock', ...where, target, filter, body };
  }

  private parseFilterBlock(): A.FilterBlock {
    const where = this.pos();
    this.expectName('filter');
    // startInline parses at least one filter.
    const filter = this.parseFilter(null, true) as A.Filter;
    this.advanceAfterBlockEnd('filter');
    const body = this.bodyUntil('endfilter');
    this.advanceAfterBlockEnd();
    return { typename: 'FilterBlock', ...where, filter, body };
  }

  private parseWith(): A.With {
    const where = this.pos();
    this.expectName('with');
    const targets: A.Target[] = [];
    const values: A.Expr[] = [];
    while (!this.at(T.TOKEN_BLOCK_END)) {
      if (targets.length > 0) this.expect(T.TOKEN_COMMA);
      targets.push(this.parseAssignTarget());
      if (!this.skipValue(T.TOKEN_OPERATOR, '=')) this.fail("expected '='");
      values.push(this.expr());
    }
    this.advanceAfterBlockEnd('with');
    const body = this.bodyUntil('endwith');
    this.advanceAfterBlockEnd();
    return { typename: 'With', ...where, targets, values, body };
  }

  private parseInclude(): A.Include {
    const where = this.pos();
    this.expectName('include');
    const template = this.parseExpression() as A.Expr;
    let ignoreMissing = false;
    if (this.atName('ignore') && this.look()?.value === 'missing') {
      this.nextToken();
      this.nextToken();
      ignoreMissing = true;
    }
    let withContext = true;
    if ((this.atName('with') || this.atName('without')) && this.look()?.value === 'context') {
      withContext = this.nextToken()?.value === 'with';
      this.nextToken();
    }
    return this.finish('include', { typename: 'Include', ...where, template, ignoreMissing, withContext });
  }

  /** The statements up to one of the tags (left unconsumed). */
  private bodyUntil(...tags: string[]): A.NodeList {
    return this.parseUntilBlocks(...tags) as A.NodeList;
  }
}

export function parse(tokens: Token[], options: ParseOptions): A.NodeList {
  return new JinjaParser(tokens, options).parseAsRoot() as A.NodeList;
}
