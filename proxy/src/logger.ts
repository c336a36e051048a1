/** Structured, injectable logging. Tests pass their own to capture lines. */
export type LogFields = Record<string, string | number | boolean | undefined>;

export interface Logger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

function formatValue(value: string | number | boolean): string {
  const text = String(value);
  return /^[\w./:@-]*$/.test(text) ? text : JSON.stringify(text);
}

export function formatLogLine(
  level: string,
  message: string,
  fields: LogFields = {},
): string {
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined) pairs.push(`${name}=${formatValue(value)}`);
  }
  return [new Date().toISOString(), level, message, ...pairs].join(" ");
}

/**
 * One line per event on the console. `secrets` are masked as a last line of defence:
 * nothing should log the API key, but if a library error ever echoed it, it must not leak.
 */
export function createConsoleLogger(secrets: readonly string[] = []): Logger {
  const mask = (line: string) =>
    secrets.reduce(
      (text, secret) => (secret ? text.replaceAll(secret, "[redacted]") : text),
      line,
    );
  return {
    info: (message, fields) =>
      console.log(mask(formatLogLine("INFO", message, fields))),
    warn: (message, fields) =>
      console.error(mask(formatLogLine("WARN", message, fields))),
    error: (message, fields) =>
      console.error(mask(formatLogLine("ERROR", message, fields))),
  };
}
