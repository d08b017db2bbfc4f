// Logs and progress go to stderr; stdout carries results only. Levels via M3_LOG_LEVEL.
import { redactText } from './redact.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export function createLogger(
  level: LogLevel = (process.env.M3_LOG_LEVEL as LogLevel | undefined) ?? 'info',
  write: (line: string) => void = (line) => process.stderr.write(line),
): Logger {
  const threshold = order[level] ?? order.info;
  const emit = (at: LogLevel, message: string) => {
    if (order[at] < threshold) return;
    write(`${at === 'info' ? '' : `[${at}] `}${redactText(message)}\n`);
  };
  return {
    debug: (message) => emit('debug', message),
    info: (message) => emit('info', message),
    warn: (message) => emit('warn', message),
    error: (message) => emit('error', message),
  };
}

export const log = createLogger();
