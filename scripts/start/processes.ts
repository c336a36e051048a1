// Child processes for `npm start`: their logs to files, their warnings to the terminal, their
// start-up events to the script, and one stop for all.
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, writeSync } from "node:fs";
import { createInterface } from "node:readline";
import {
  belongsOnTerminal,
  type LogEvent,
  parseLogLine,
  plainLine,
  readableEvent,
} from "./child-output.ts";
import { appendOnlyLog } from "./data-permissions.ts";

export interface Child {
  process: ChildProcess;
  /** Resolves with the first event logged with this message from now on. */
  waitFor(message: string): Promise<LogEvent>;
  /** The latest event logged with this message, if any was. */
  lastEvent(message: string): LogEvent | undefined;
}

const children = new Set<ChildProcess>();
let stopping = false;

export interface ChildOptions {
  /** "service" or "proxy": prefixes its lines on the terminal. */
  label: string;
  script: string;
  cwd: string;
  env: Record<string, string | undefined>;
  /** Where its JSON log lines are appended. */
  logFile: string;
  /** How the log file is named to a person. */
  logFileShown: string;
}

export function startChild({
  label,
  script,
  cwd,
  env,
  logFile,
  logFileShown,
}: ChildOptions): Child {
  const child = spawn(process.execPath, [script], {
    cwd,
    // An undefined value removes a variable the shell exported, so a child never gets two
    // sources for one setting (e.g. UPSTREAM_API_KEY beside UPSTREAM_API_KEY_FILE).
    env: Object.fromEntries(
      Object.entries({ ...process.env, ...env }).filter(
        ([, value]) => value !== undefined,
      ),
    ),
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  const log = appendOnlyLog(logFile);
  // One per message, not one per line: a bounded set however long VICS runs.
  const latest = new Map<string, LogEvent>();
  const waiting = new Map<string, ((event: LogEvent) => void)[]>();

  const onLine = (line: string, terminal: NodeJS.WriteStream) => {
    const event = parseLogLine(line);
    if (!event) {
      terminal.write(`${plainLine(label, line)}\n`);
      return;
    }
    writeSync(log, `${line}\n`);
    if (belongsOnTerminal(event))
      process.stderr.write(`${readableEvent(label, event)}\n`);
    const message = String(event.msg);
    latest.set(message, event);
    for (const resolve of waiting.get(message) ?? []) resolve(event);
    waiting.delete(message);
  };
  createInterface({ input: child.stdout }).on("line", (line) =>
    onLine(line, process.stdout),
  );
  createInterface({ input: child.stderr }).on("line", (line) =>
    onLine(line, process.stderr),
  );

  // "close", not "exit": every line the child wrote has been handled by then.
  child.on("close", (code, signal) => {
    children.delete(child);
    closeSync(log);
    if (stopping) return;
    console.error(
      `[${label}] stopped unexpectedly (${signal ?? `exit code ${code}`}); stopping VICS. What it said last is above; its log: ${logFileShown}`,
    );
    void stopAll().then(() => process.exit(1));
  });

  return {
    process: child,
    waitFor: (message) =>
      new Promise((resolve) =>
        waiting.set(message, [...(waiting.get(message) ?? []), resolve]),
      ),
    lastEvent: (message) => latest.get(message),
  };
}

export async function stopAll(): Promise<void> {
  stopping = true;
  const closed = [...children].map(
    (child) =>
      new Promise<void>((resolve) => {
        child.once("close", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5000).unref();
      }),
  );
  await Promise.all(closed);
}
