/**
 * `@vics/server-kit/testing/memory-logger`: the real log format, kept in memory, for tests of the
 * service and the proxy. It masks nothing, so a test that finds no key in its lines proves the
 * key was never logged, not that the mask caught it.
 */
import { createLogger, type Logger, type LogLevel } from "../logger.ts";

/** A logged event as a reader of the log sees it: one parsed JSON line. */
export type LogEvent = Record<string, unknown>;

export function memoryLogger(
  level: LogLevel = "info",
  service = "service",
): Logger & { events: LogEvent[]; lines: string[] } {
  const events: LogEvent[] = [];
  const lines: string[] = [];
  const write = (line: string) => {
    lines.push(line);
    events.push(JSON.parse(line));
  };
  return {
    ...createLogger({ service, level, destination: { write } }),
    events,
    lines,
  };
}
