// The cluster's replicas, each started from its rendered systemd unit and kept running as
// systemd would: started again after RestartSec when it dies (Restart=on-failure). Its JSON log
// lines go to a file; warnings and errors also reach the terminal, unless `quiet`.
import type { ChildProcess } from "node:child_process";
import { createWriteStream, readFileSync, type WriteStream } from "node:fs";
import { createInterface } from "node:readline";
import {
  belongsOnTerminal,
  parseLogLine,
  plainLine,
  readableEvent,
} from "../start/child-output.ts";
import { answersOk, spawnInGroup, stopChild } from "./process-group.ts";
import type { UnitCommand } from "./units.ts";

export interface ReplicaOptions {
  /** e.g. "service-3101": its log file and its prefix on the terminal. */
  name: string;
  unit: UnitCommand;
  port: number;
  /** Answers 200 here once the replica can serve (its readiness check). */
  readyPath: string;
  logFile: string;
  quiet?: boolean;
  /** How long a start may take to be ready (a first seeding takes a while). */
  readyTimeoutMs?: number;
}

/** What a terminal sends the whole foreground group: Ctrl-C, and its closing. */
const TERMINAL_SIGNALS: ReadonlySet<NodeJS.Signals> = new Set([
  "SIGINT",
  "SIGHUP",
]);

export class Replica {
  readonly name: string;
  readonly port: number;
  /** How many times it has been started, the first start included. */
  starts = 0;
  private child: ChildProcess | undefined;
  private stopping = false;
  private readonly log: WriteStream;

  private readonly options: ReplicaOptions;

  constructor(options: ReplicaOptions) {
    this.options = options;
    this.name = options.name;
    this.port = options.port;
    this.log = createWriteStream(options.logFile, { flags: "a" });
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The environment its unit gives it. */
  get env(): Record<string, string> {
    return this.options.unit.env;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts it and waits until its readiness check answers 200. */
  async start(): Promise<void> {
    this.stopping = false;
    this.spawn();
    await this.waitReady();
  }

  private spawn(): void {
    const { unit } = this.options;
    this.starts++;
    // Its own process group: Ctrl-C reaches the cluster, which stops the replicas in order
    // (nginx's callers first), not every replica at once; and whatever happens to the
    // cluster's process, its replicas do not outlive it.
    const child = spawnInGroup(unit.command, unit.args, {
      cwd: unit.cwd,
      // As systemd: the unit's environment and little else.
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...unit.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = child;
    const onLine = (line: string) => {
      this.log.write(`${line}\n`);
      if (this.options.quiet) return;
      const event = parseLogLine(line);
      if (!event) process.stderr.write(`${plainLine(this.name, line)}\n`);
      else if (belongsOnTerminal(event))
        process.stderr.write(`${readableEvent(this.name, event)}\n`);
    };
    createInterface({ input: child.stdout! }).on("line", onLine);
    createInterface({ input: child.stderr! }).on("line", onLine);
    child.once("exit", (code, signal) => this.onExit(child, code, signal));
  }

  private onExit(
    child: ChildProcess,
    code: number | null,
    signal: NodeJS.Signals | null,
  ): void {
    if (this.stopping || this.child !== child) return;
    // A replica spawned in the instant a terminal's Ctrl-C (or its closing) reached the group
    // still gets that signal, as it leaves the group just after: the cluster heard it too and
    // is stopping everything, so this is no failure to report or restart. Nothing here sends a
    // replica SIGINT or SIGHUP (a stop is SIGTERM; a drill's kill, SIGKILL).
    if (signal !== null && TERMINAL_SIGNALS.has(signal)) {
      this.log.write(
        `${JSON.stringify({ level: "info", msg: "replica stopped by the terminal's signal", signal })}\n`,
      );
      return;
    }
    this.log.write(
      `${JSON.stringify({ level: "warn", msg: "replica died", code, signal })}\n`,
    );
    if (!this.options.quiet)
      process.stderr.write(
        `[${this.name}] died (${signal ?? `exit code ${code}`}); starting it again in ${this.options.unit.restartSeconds} s\n`,
      );
    if (!this.options.unit.restartOnFailure) return;
    setTimeout(() => {
      if (!this.stopping && this.child === child) this.spawn();
    }, this.options.unit.restartSeconds * 1000).unref();
  }

  /** Resolves once GET readyPath answers 200; throws once it is being stopped. */
  async waitReady(): Promise<void> {
    const timeoutMs = this.options.readyTimeoutMs ?? 180_000;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      // Stopped while starting (Ctrl-C during `npm run cluster`'s start): it will not be ready.
      if (this.stopping) throw new Error(`${this.name} was stopped`);
      if (await answersOk(this.url + this.options.readyPath)) return;
      if (Date.now() > deadline)
        throw new Error(
          `${this.name} was not ready within ${timeoutMs / 1000} s: see ${this.options.logFile}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** The JSON log events it has written with this message, across its starts. */
  async logEvents(message: string): Promise<Record<string, unknown>[]> {
    // Written lines reach the file once the stream has drained them.
    await new Promise<void>((resolve) => {
      if (this.log.writableNeedDrain) this.log.once("drain", resolve);
      else resolve();
    });
    return readFileSync(this.options.logFile, "utf8")
      .split("\n")
      .map(parseLogLine)
      .filter(
        (event) => event !== undefined && event.msg === message,
      ) as Record<string, unknown>[];
  }

  /** Sends a signal, as `kill` would; SIGKILL makes it start again after RestartSec. */
  kill(signal: NodeJS.Signals): void {
    this.child?.kill(signal);
  }

  /** Stops it the way systemd does: SIGTERM, then SIGKILL after 15 s. */
  async stop(): Promise<void> {
    this.stopping = true;
    await stopChild(this.child, "SIGTERM", 15_000);
  }

  /** `systemctl restart`: a graceful stop, a start, and ready again. */
  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  async close(): Promise<void> {
    await this.stop();
    await new Promise((resolve) => this.log.end(resolve));
  }
}
