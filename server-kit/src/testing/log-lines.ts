/**
 * `@vics/server-kit/testing/log-lines`: the log of a service or proxy run as a child process, as
 * the tests of their start and stop read it. Test support.
 */
import { expect } from "vitest";
import type { LogEvent } from "./memory-logger.ts";

/** Every line a process wrote to stdout, parsed: the apps write only JSON lines there. */
export function logEvents(stdout: string): LogEvent[] {
  return stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LogEvent);
}

/** That every line is in the one format (decision 011), and written by `service`. */
export function expectOneLogFormat(events: LogEvent[], service: string): void {
  for (const event of events)
    expect(event).toMatchObject({
      time: expect.any(String),
      level: expect.any(String),
      service,
      msg: expect.any(String),
    });
}
