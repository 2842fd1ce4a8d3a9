export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

export interface Logger {
  error(msg: string): void;
  warn(msg: string): void;
  info(msg: string): void;
  debug(msg: string): void;
}

const ORDER: LogLevel[] = ['error', 'warn', 'info', 'debug'];

/** Plain line logger on stderr, filtered by LOG_LEVEL. */
export function createLogger(level: string): Logger {
  const max = ORDER.indexOf(ORDER.includes(level as LogLevel) ? (level as LogLevel) : 'info');
  const at = (l: LogLevel) => (msg: string) => {
    if (ORDER.indexOf(l) <= max) process.stderr.write(`${new Date().toISOString()} ${l.toUpperCase()} ${msg}\n`);
  };
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}
