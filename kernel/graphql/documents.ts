import { GraphQLError, Kind, parse, specifiedRules, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import { RecentlyUsed } from '../base/collections.js';
import { documentProblem, variablesProblem } from './arguments.js';
import { limitRules, type QueryLimits } from './limits.js';
import { expandShorthand } from './shorthand.js';
import { withEnumHints } from './enum-hints.js';

/** Documents past this many tokens are refused by the parser, before any work on them. */
const MAX_TOKENS = 20_000;
/** Checked texts kept, the least recently used dropped first. */
const KEPT = 200;

/** A query text made ready to run (its document, short forms expanded), or why it cannot run: GraphQL's errors or a message. */
export type Checked = { document: DocumentNode } | { errors: readonly GraphQLError[] } | { message: string };

/**
 * Parses, bounds, expands and validates query texts. A text that declares no variables checks the same every time:
 * its verdict is kept, so a client repeating a query does not have it validated again (for a small query, validation
 * against the whole schema is as much work as answering it).
 */
export class DocumentChecker {
  private readonly kept = new RecentlyUsed<string, Checked>(KEPT);

  constructor(private readonly schema: GraphQLSchema, private readonly limits: QueryLimits) {}

  /** The verdict on `text` with `variables` (whose short forms are expanded in place). */
  check(text: string, variables: Record<string, unknown>): Checked {
    const kept = this.kept.get(text);
    if (kept) {
      // Declaring no variables, the text ignores those given; they are bounded all the same.
      const problem = 'document' in kept ? variablesProblem(variables) : undefined;
      return problem ? { message: problem } : kept;
    }
    let document: DocumentNode;
    try {
      document = parse(text, { maxTokens: MAX_TOKENS });
    } catch (err) {
      // The parser recurses: a document nested thousands of levels deep exhausts its stack.
      return { errors: [err instanceof GraphQLError ? err : new GraphQLError('The document is nested too deeply to read.')] };
    }
    const problem = documentProblem(document) ?? variablesProblem(variables);
    if (problem) return { message: problem };
    const declares = document.definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION && !!d.variableDefinitions?.length);
    document = expandShorthand(this.schema, document, variables);
    const errors = validate(this.schema, document, [...specifiedRules, ...limitRules(this.limits, () => variables)]);
    const checked = errors.length ? { errors: withEnumHints(this.schema, errors) } : { document };
    if (!declares) this.kept.set(text, checked);
    return checked;
  }
}
