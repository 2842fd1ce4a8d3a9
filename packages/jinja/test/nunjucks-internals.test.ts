import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { Parser, T, TOKEN_TYPES, type ParserBase } from '../src/nunjucks.js';

/** The version the corpus and the generated matrix were last checked on: another needs that check again. */
const CHECKED_VERSION = '3.2.4';

/** The methods of nunjucks' Parser that parser.ts and expressions.ts call or override. */
const PARSER_METHODS = [
  'nextToken', 'peekToken', 'pushToken', 'fail', 'skip', 'expect', 'skipValue', 'skipSymbol', 'advanceAfterBlockEnd',
  'parseUntilBlocks', 'parseIf', 'parseImport', 'parseFrom', 'parseExtends', 'parseAsRoot', 'parseNodes',
  'parseStatement', 'parseExpression', 'parsePrimary',
] as const satisfies readonly (keyof ParserBase)[];

/**
 * The engine builds on nunjucks' internals (src/lexer.js, src/parser.js), which no release promises to keep: an
 * upgrade that changes them fails here, saying what, before a template renders differently.
 */
describe("nunjucks' internals", () => {
  it(`are those of nunjucks ${CHECKED_VERSION}, the version package.json pins`, () => {
    const { version } = createRequire(import.meta.url)('nunjucks/package.json') as { version: string };
    expect(version, `nunjucks ${version} is installed; the engine was checked on ${CHECKED_VERSION}: run the corpus and the matrix (npm test), then update CHECKED_VERSION and the pin`).toBe(CHECKED_VERSION);
  });

  it('have every token type the lexer port reads', () => {
    const missing = TOKEN_TYPES.filter((name) => typeof T[name] !== 'string' || !T[name]);
    expect(missing, "token types missing from nunjucks/src/lexer.js").toEqual([]);
  });

  it('have every Parser method the grammar calls or overrides', () => {
    const prototype = Parser.prototype as unknown as Record<string, unknown>;
    const missing = PARSER_METHODS.filter((name) => typeof prototype[name] !== 'function');
    expect(missing, 'methods missing from nunjucks/src/parser.js Parser').toEqual([]);
  });
});
