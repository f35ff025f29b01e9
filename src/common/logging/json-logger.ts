import type { LoggerService } from '@nestjs/common';
import { redact } from './redact.js';
import { dict } from '../../domain/dict.js';

const LEVELS = { debug: 10, verbose: 10, log: 20, info: 20, warn: 30, error: 40, fatal: 50, silent: 100 } as const;
type Level = keyof typeof LEVELS;

export { redact } from './redact.js';

/** Nest's start-up chatter, demoted to debug. */
const QUIET_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory']);

/** Structured JSON lines on stdout; one object per log call, never an API key. */
export class JsonLogger implements LoggerService {
  private readonly threshold: number;
  constructor(level: string = 'info') {
    this.threshold = LEVELS[Object.hasOwn(LEVELS, level) ? (level as Level) : 'info'];
  }

  private write(level: Level, message: unknown, context?: string, extra?: Record<string, unknown>): void {
    if (LEVELS[level] < this.threshold) return;
    // Log lines carry wall time (when it happened on this machine), never the injected clock.
    const base: Record<string, unknown> = dict({ level: level === 'log' ? 'info' : level, time: new Date().toISOString() });
    if (context) base.context = context;
    if (message && typeof message === 'object' && !(message instanceof Error)) Object.assign(base, message);
    else if (message instanceof Error) Object.assign(base, { msg: message.message, err: message.stack });
    else base.msg = String(message);
    if (extra) Object.assign(base, extra);
    const line = redact(JSON.stringify(base));
    if (LEVELS[level] >= LEVELS.warn) process.stderr.write(line + '\n');
    else process.stdout.write(line + '\n');
  }

  private split(params: unknown[]): { context?: string; stack?: string } {
    const ctx = params.length && typeof params[params.length - 1] === 'string' ? (params[params.length - 1] as string) : undefined;
    const stack = params.length > 1 && typeof params[0] === 'string' ? (params[0] as string) : undefined;
    return { context: ctx, stack };
  }

  log(message: unknown, ...params: unknown[]): void {
    const context = this.split(params).context;
    this.write(context && QUIET_CONTEXTS.has(context) ? 'debug' : 'log', message, context);
  }
  error(message: unknown, ...params: unknown[]): void {
    const { context, stack } = this.split(params);
    this.write('error', message, context, stack && stack !== context ? { err: stack } : undefined);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, this.split(params).context);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, this.split(params).context);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('verbose', message, this.split(params).context);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, this.split(params).context);
  }
}
