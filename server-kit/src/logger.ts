/**
 * The log of the service and the proxy: pino's JSON lines, one format for both (time, level,
 * service, msg, then the event's fields; docs/decisions/011-one-log-format.md). Injected into
 * each app, so tests read what was logged and nothing reaches their console.
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
  /** Which process wrote the line: `service` or `proxy`, on every line. */
  service: string;
  level?: LogLevel;
  /**
   * Masked wherever they appear in a line, as a last line of defence: nothing should log an
   * API key, but if a library's error message ever echoed one, it must not leak.
   */
  secrets?: readonly string[];
  /** Default: stdout, written asynchronously and flushed when the process exits. */
  destination?: DestinationStream;
}

/**
 * `secrets` may grow (a key reloaded on SIGHUP is pushed to it), so its forms are worked out
 * again when its length changes, not on every line.
 */
export function maskSecrets(secrets: readonly string[]) {
  let forms: string[] = [];
  let known = -1;
  return (line: string) => {
    if (secrets.length !== known) {
      known = secrets.length;
      forms = secrets
        .filter(Boolean)
        // Also as JSON escapes it, should a secret ever hold a quote or a backslash.
        .flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)]);
    }
    let text = line;
    for (const form of forms) text = text.replaceAll(form, "[redacted]");
    return text;
  };
}

export function createLogger(options: LoggerOptions): Logger {
  const log = pino(
    {
      level: options.level ?? "info",
      base: { service: options.service },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // Only where there is something to mask: the hook runs on every line.
      ...(options.secrets && {
        hooks: { streamWrite: maskSecrets(options.secrets) },
      }),
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
