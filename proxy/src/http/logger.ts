/**
 * The proxy's log: pino's JSON lines, in the format the service writes too (time, level,
 * service, msg, then the event's fields; docs/decisions/011-one-log-format.md). Injected, so
 * tests pass their own to read what was logged.
 */
import { pino, type DestinationStream } from "pino";

export type LogFields = Record<string, string | number | boolean | undefined>;
export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Logger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export interface LoggerOptions {
  level?: LogLevel;
  /**
   * Masked wherever they appear in a line, as a last line of defence: nothing should log the
   * API key, but if a library's error message ever echoed it, it must not leak.
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

export function createLogger(options: LoggerOptions = {}): Logger {
  const log = pino(
    {
      level: options.level ?? "info",
      base: { service: "proxy" },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      hooks: { streamWrite: maskSecrets(options.secrets ?? []) },
    },
    options.destination ?? pino.destination({ sync: false }),
  );
  return {
    info: (message, fields = {}) => log.info(fields, message),
    warn: (message, fields = {}) => log.warn(fields, message),
    error: (message, fields = {}) => log.error(fields, message),
  };
}
