/**
 * The parts of nunjucks' internals this engine builds on, with the minimal types they need (nunjucks' public API has
 * no parser): the token types and the Parser class, which expressions.ts and parser.ts subclass. They are not a
 * public API, so nunjucks is pinned (package.json) and test/nunjucks-internals.test.ts fails, naming what changed,
 * when another version lacks any of them.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export interface Token {
  type: string;
  value: string;
  /** 0-based, as nunjucks counts. */
  lineno: number;
  colno: number;
}

/** What nunjucks' Parser reads tokens from. */
export interface TokenSource {
  nextToken(): Token | null;
  tags: Record<
    'BLOCK_START' | 'BLOCK_END' | 'VARIABLE_START' | 'VARIABLE_END' | 'COMMENT_START' | 'COMMENT_END',
    string
  >;
}

/** Every node has these; `typename` is the class name (a getter on nunjucks' classes, a field on ours). */
export interface NodeBase {
  readonly typename: string;
  lineno: number;
  colno: number;
}

/** The token types of nunjucks' lexer this engine reads. */
export const TOKEN_TYPES = [
  'TOKEN_STRING', 'TOKEN_DATA', 'TOKEN_BLOCK_START', 'TOKEN_BLOCK_END', 'TOKEN_VARIABLE_START', 'TOKEN_VARIABLE_END',
  'TOKEN_LEFT_PAREN', 'TOKEN_RIGHT_PAREN', 'TOKEN_LEFT_BRACKET', 'TOKEN_RIGHT_BRACKET', 'TOKEN_LEFT_CURLY',
  'TOKEN_RIGHT_CURLY', 'TOKEN_OPERATOR', 'TOKEN_COMMA', 'TOKEN_COLON', 'TOKEN_TILDE', 'TOKEN_PIPE', 'TOKEN_INT',
  'TOKEN_FLOAT', 'TOKEN_SYMBOL',
] as const;

export const T = require('nunjucks/src/lexer.js') as Record<(typeof TOKEN_TYPES)[number], string>;

/** nunjucks' Parser, as far as parser.ts uses or overrides it. */
export interface ParserBase {
  tokens: TokenSource;
  breakOnBlocks: string[] | null;
  nextToken(withWhitespace?: boolean): Token | null;
  peekToken(): Token | null;
  pushToken(tok: Token | null): void;
  fail(msg: string, lineno?: number, colno?: number): never;
  skip(type: string): boolean;
  expect(type: string): Token;
  skipValue(type: string, value: string): boolean;
  skipSymbol(value: string): boolean;
  advanceAfterBlockEnd(name?: string): Token;
  parseUntilBlocks(...names: string[]): NodeBase;
  parseIf(): NodeBase;
  parseImport(): NodeBase;
  parseFrom(): NodeBase;
  parseExtends(): NodeBase;
  parseAsRoot(): NodeBase;
  parseNodes(): NodeBase[];
  parseStatement(): NodeBase | null;
  parseExpression(): NodeBase;
  parsePrimary(noPostfix?: boolean): NodeBase;
}

export const Parser = (require('nunjucks/src/parser.js') as { Parser: new (tokens: TokenSource) => ParserBase }).Parser;
