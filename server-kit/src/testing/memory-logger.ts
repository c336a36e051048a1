/**
 * `@vics/server-kit/testing/memory-logger`: the one memory logger of the service's and the
 * proxy's tests (issue 36): the real logger and format, kept in memory. It masks nothing, so a
 * test that finds no key in its lines proves the key was never logged, not that the mask caught
 * it. A test reads the lines as written (`lines`, `text()`), parsed (`events`), or as a reader
 * of one event sees it (`entries`: its level, message and own fields); `clear()` empties all
 * three, which are views of the one list of lines.
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
  /** Every line written, in order: the one record, which the views below are read from. */
  readonly lines: readonly string[];
  /** The lines parsed. */
  readonly events: readonly LogEvent[];
  /** The lines as their level, message and own fields. */
  readonly entries: readonly LogEntry[];
  /** Every line written, as one text. */
  text(): string;
  /** Forgets every line so far (say, a server's start), so a test reads only what follows. */
  clear(): void;
};

export function memoryLogger(
  level: LogLevel = "info",
  service = "service",
): MemoryLogger {
  // One array, and the events and entries read from it when asked: kept as separate copies,
  // a test that emptied one still found the old lines in the others.
  const lines: string[] = [];
  const events = () => lines.map((line) => JSON.parse(line) as LogEvent);
  return {
    ...createLogger({
      service,
      level,
      destination: { write: (line: string) => void lines.push(line) },
    }),
    lines,
    get events() {
      return events();
    },
    get entries() {
      return events().map(entryOf);
    },
    text: () => lines.join(""),
    clear() {
      lines.length = 0;
    },
  };
}

function entryOf(event: LogEvent): LogEntry {
  const { level, msg, time: _time, service: _service, ...fields } = event;
  return {
    level: level as LogLevel,
    message: msg as string,
    fields: fields as LogFields,
  };
}
