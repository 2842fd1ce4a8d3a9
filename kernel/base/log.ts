import cluster from 'node:cluster';
export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

/** Facts a line carries beside its message (`status`, `request_id`): keys and values in text, fields in JSON. */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface Logger {
  error(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  debug(msg: string, fields?: LogFields): void;
}

export type LogFormat = 'text' | 'json';

const ORDER: LogLevel[] = ['error', 'warn', 'info', 'debug'];

/** `key=value`, quoted when the value has spaces, quotes or an equals sign (logfmt). */
function pair(key: string, value: string | number | boolean | null): string {
  const text = String(value);
  return `${key}=${/[\s"=]/.test(text) || text === '' ? JSON.stringify(text) : text}`;
}

/**
 * A line logger on stderr, filtered by LOG_LEVEL: readable text (`<time> <LEVEL> <message> key=value…`), or one
 * JSON object per line for log collectors (`LOG_FORMAT=json`: `time`, `level`, `msg` and the fields).
 */
export function createLogger(level: string, format: LogFormat = 'text'): Logger {
  const max = ORDER.indexOf(ORDER.includes(level as LogLevel) ? (level as LogLevel) : 'info');
  // The workers of one `runserver` share its output: each line says which process wrote it.
  const own: LogFields = cluster.isWorker ? { pid: process.pid } : {};
  const at = (l: LogLevel) => (msg: string, fields: LogFields = {}) => {
    if (ORDER.indexOf(l) > max) return;
    const time = new Date().toISOString();
    const present = Object.entries({ ...fields, ...own }).filter((e): e is [string, string | number | boolean | null] => e[1] !== undefined);
    const line = format === 'json'
      ? JSON.stringify({ time, level: l, msg, ...Object.fromEntries(present) })
      : [`${time} ${l.toUpperCase()} ${msg}`, ...present.map(([k, v]) => pair(k, v))].join(' ');
    process.stderr.write(`${line}\n`);
  };
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}
