/** Structured log lines. Injected, so tests stay quiet and can read what was logged. */
export type LogEvent = Record<string, unknown>;

export interface Logger {
  info(event: LogEvent): void;
  error(event: LogEvent): void;
}

function line(level: string, event: LogEvent): string {
  return (
    JSON.stringify({ time: new Date().toISOString(), level, ...event }) + "\n"
  );
}

export const jsonLogger: Logger = {
  info: (event) => void process.stdout.write(line("info", event)),
  error: (event) => void process.stderr.write(line("error", event)),
};

export const silentLogger: Logger = { info: () => {}, error: () => {} };

/** Keeps every event in memory, for tests. */
export function memoryLogger(): Logger & { events: LogEvent[] } {
  const events: LogEvent[] = [];
  return {
    events,
    info: (event) => void events.push({ level: "info", ...event }),
    error: (event) => void events.push({ level: "error", ...event }),
  };
}
