// What `npm start` does with a child's output: JSON log lines go to its log file, and only
// warnings and errors, made readable, reach the terminal. Anything else a child prints (a
// fatal start-up message in plain words) goes to the terminal as it is.

export type LogEvent = Record<string, unknown>;

/** A child's JSON log line, or undefined for anything else it prints. */
export function parseLogLine(line: string): LogEvent | undefined {
  if (!line.startsWith("{")) return undefined;
  try {
    const event: unknown = JSON.parse(line);
    return typeof event === "object" &&
      event !== null &&
      "msg" in event &&
      "level" in event
      ? (event as LogEvent)
      : undefined;
  } catch {
    return undefined;
  }
}

const TERMINAL_LEVELS = new Set(["warn", "error", "fatal"]);

export function belongsOnTerminal(event: LogEvent): boolean {
  return TERMINAL_LEVELS.has(String(event.level));
}

/**
 * A line a child printed that is not a log line, as the terminal shows it: after its label, as
 * `[proxy]   Sign in to VICS...`. A blank line stays blank: the label alone says nothing.
 */
export function plainLine(label: string, line: string): string {
  return line.trim() === "" ? "" : `[${label}] ${line}`;
}

/** `[proxy] warn: the vehicle service is not answering (upstream=http://127.0.0.1:3001)` */
export function readableEvent(label: string, event: LogEvent): string {
  const { time: _time, level, service: _service, msg, ...fields } = event;
  const details = Object.entries(fields).map(
    ([name, value]) =>
      `${name}=${typeof value === "string" ? value : JSON.stringify(value)}`,
  );
  const suffix = details.length > 0 ? ` (${details.join(", ")})` : "";
  return `[${label}] ${String(level)}: ${String(msg)}${suffix}`;
}
