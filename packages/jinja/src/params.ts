/** NetBox's ConfigTemplate.environment_params (keyword arguments of Jinja's Environment) validated into settings. */
import { TemplateError } from './errors.js';
import type { Syntax } from './lexer.js';
import type { UndefinedKind } from './values.js';

export interface Settings extends Syntax {
  undefinedKind: UndefinedKind;
  /** jinja2.ext.loopcontrols: `{% break %}`, `{% continue %}`. */
  loopControls: boolean;
  /** jinja2.ext.do: `{% do expr %}`. */
  doStatement: boolean;
}

const DEFAULT_SETTINGS: Readonly<Settings> = {
  blockStart: '{%',
  blockEnd: '%}',
  variableStart: '{{',
  variableEnd: '}}',
  commentStart: '{#',
  commentEnd: '#}',
  lineStatementPrefix: null,
  lineCommentPrefix: null,
  trimBlocks: false,
  lstripBlocks: false,
  keepTrailingNewline: false,
  newlineSequence: '\n',
  undefinedKind: 'default',
  loopControls: false,
  doStatement: false,
};

const DELIMITERS = {
  block_start_string: 'blockStart',
  block_end_string: 'blockEnd',
  variable_start_string: 'variableStart',
  variable_end_string: 'variableEnd',
  comment_start_string: 'commentStart',
  comment_end_string: 'commentEnd',
} as const;

const FLAGS = {
  trim_blocks: 'trimBlocks',
  lstrip_blocks: 'lstripBlocks',
  keep_trailing_newline: 'keepTrailingNewline',
} as const;

/** Dotted paths NetBox resolves with import_string, and the Undefined they name. */
const UNDEFINED: Record<string, UndefinedKind> = {
  Undefined: 'default',
  StrictUndefined: 'strict',
  ChainableUndefined: 'chainable',
  DebugUndefined: 'debug',
};

const EXTENSIONS: Record<string, 'loopControls' | 'doStatement'> = {
  'jinja2.ext.loopcontrols': 'loopControls',
  'jinja2.ext.LoopControlExtension': 'loopControls',
  'jinja2.ext.do': 'doStatement',
  'jinja2.ext.ExprStmtExtension': 'doStatement',
};

/** Parameters accepted because they cannot change what a template renders. */
const INERT = new Set(['optimized', 'cache_size', 'auto_reload']);

function invalid(key: string, why: string): never {
  throw new TemplateError(`Invalid environment parameter '${key}': ${why}`);
}

function undefinedKind(key: string, value: unknown): UndefinedKind {
  const m = typeof value === 'string' ? /^jinja2\.(?:runtime\.)?(\w+)$/.exec(value) : null;
  const kind = m && Object.hasOwn(UNDEFINED, m[1]) ? UNDEFINED[m[1]] : undefined;
  if (kind === undefined)
    invalid(
      key,
      'expected one of jinja2.Undefined, jinja2.StrictUndefined, jinja2.ChainableUndefined, jinja2.DebugUndefined',
    );
  return kind;
}

export function settingsFrom(params: Record<string, unknown> = {}): Settings {
  const s: Settings = { ...DEFAULT_SETTINGS };
  for (const [key, value] of Object.entries(params)) {
    if (Object.hasOwn(DELIMITERS, key)) {
      if (typeof value !== 'string' || value === '') invalid(key, 'expected a non-empty string');
      s[DELIMITERS[key as keyof typeof DELIMITERS]] = value;
    } else if (Object.hasOwn(FLAGS, key)) {
      if (typeof value !== 'boolean') invalid(key, 'expected true or false');
      s[FLAGS[key as keyof typeof FLAGS]] = value;
    } else if (key === 'line_statement_prefix' || key === 'line_comment_prefix') {
      if (value !== null && (typeof value !== 'string' || value === ''))
        invalid(key, 'expected a non-empty string or null');
      s[key === 'line_statement_prefix' ? 'lineStatementPrefix' : 'lineCommentPrefix'] = value;
    } else if (key === 'newline_sequence') {
      if (value !== '\n' && value !== '\r\n' && value !== '\r')
        invalid(key, "must be one of '\\n', '\\r\\n', or '\\r'");
      s.newlineSequence = value;
    } else if (key === 'undefined') {
      s.undefinedKind = undefinedKind(key, value);
    } else if (key === 'extensions') {
      if (!Array.isArray(value)) invalid(key, 'expected a list of extension names');
      for (const name of value) {
        if (typeof name !== 'string' || !Object.hasOwn(EXTENSIONS, name)) {
          invalid(
            key,
            `unsupported extension ${JSON.stringify(name)} (supported: jinja2.ext.loopcontrols, jinja2.ext.do)`,
          );
        }
        s[EXTENSIONS[name]] = true;
      }
    } else if (key === 'autoescape' || key === 'enable_async') {
      if (value !== false) invalid(key, 'only false is supported');
    } else if (!INERT.has(key)) {
      invalid(key, 'not supported');
    }
  }
  // Jinja's _environment_config_check (a chained !=, so block and comment may be equal).
  if (s.blockStart === s.variableStart || s.variableStart === s.commentStart) {
    throw new TemplateError('block, variable and comment start strings must be different.');
  }
  return s;
}
