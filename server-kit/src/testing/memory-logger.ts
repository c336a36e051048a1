/**
 * `@vics/server-kit/testing/memory-logger`: the one memory logger of the service's and the
 * proxy's tests (issue 36): the real logger and format, kept in memory. It masks nothing, so a
 * test that finds no key in its lines proves the key was never logged, not that the mask caught
 * it. A test reads the lines as written (`lines`, `text()`), parsed (`events`), or as a reader
 * of one event sees it (`entries`: its level, message and own fields).
 */
import {
  createLogger,
  type LogFields,
  type Logger,
  type LogLevel,
} from "../logger.ts";

/** A logged event as a reader of the log sees it: one parsed JSON line. */
export type LogEvent = Record<string, unknown>;

/** One event's level, message and own fields (time and service are on every line, so left out). */
export interface LogEntry {
  level: LogLevel;
  message: string;
  fields: LogFields;
}

export type MemoryLogger = Logger & {
  events: LogEvent[];
  entries: LogEntry[];
  lines: string[];
  /** Every line written, as one text. */
  text(): string;
};

export function memoryLogger(
  level: LogLevel = "info",
  service = "service",
): MemoryLogger {
  const events: LogEvent[] = [];
  const entries: LogEntry[] = [];
  const lines: string[] = [];
  const write = (line: string) => {
    lines.push(line);
    const event = JSON.parse(line) as LogEvent;
    events.push(event);
    const {
      level: lineLevel,
      msg,
      time: _time,
      service: _service,
      ...fields
    } = event;
    entries.push({
      level: lineLevel as LogLevel,
      message: msg as string,
      fields: fields as LogFields,
    });
  };
  return {
    ...createLogger({ service, level, destination: { write } }),
    events,
    entries,
    lines,
    text: () => lines.join(""),
  };
}
