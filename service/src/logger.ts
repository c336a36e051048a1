/**
 * The service's log: pino's JSON lines, in the format the proxy writes too (time, level,
 * service, msg, then the event's fields; docs/decisions/011-one-log-format.md). Injected into
 * the app, so tests read what was logged and nothing reaches their console.
 */
import { pino, type DestinationStream } from "pino";

export type LogFields = Record<string, unknown>;
export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export interface LoggerOptions {
  level?: LogLevel;
  /** Default: stdout, written asynchronously and flushed when the process exits. */
  destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const log = pino(
    {
      level: options.level ?? "info",
      base: { service: "service" },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    options.destination ?? pino.destination({ sync: false }),
  );
  return {
    debug: (message, fields = {}) => log.debug(fields, message),
    info: (message, fields = {}) => log.info(fields, message),
    warn: (message, fields = {}) => log.warn(fields, message),
    error: (message, fields = {}) => log.error(fields, message),
  };
}

const ignore = () => {};
export const silentLogger: Logger = {
  debug: ignore,
  info: ignore,
  warn: ignore,
  error: ignore,
};

/** A logged event as a reader of the log sees it: one parsed JSON line. */
export type LogEvent = Record<string, unknown>;

/** The real format, kept in memory: for tests. */
export function memoryLogger(
  level: LogLevel = "info",
): Logger & { events: LogEvent[] } {
  const events: LogEvent[] = [];
  const write = (line: string) => void events.push(JSON.parse(line));
  return { ...createLogger({ level, destination: { write } }), events };
}
