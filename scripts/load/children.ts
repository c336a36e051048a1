// The servers of a load run (the stack's service and proxy, the bench's extra proxies, its hello
// app and nginx): each a child process on a free loopback port, awaited until it answers, and
// every one stopped by stopAllChildren() however the run ends.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";

export interface Child {
  /** http://127.0.0.1:port, no trailing slash. */
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

const running = new Set<Child>();

export interface ChildOptions {
  label: string;
  command: string;
  args: string[];
  port: number;
  /** Any answer on this path means the server is up. */
  readyPath: string;
  env?: Record<string, string>;
  cwd?: string;
  /** Read when the child fails to start, e.g. nginx's error log. */
  describeFailure?: () => string;
  /** How long it may take to answer; default 60 s (a service seeding its database takes more). */
  timeoutMs?: number;
}

/** SIGTERM, then SIGKILL after 10 s; resolves once it has exited. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

export async function startChild(options: ChildOptions): Promise<Child> {
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    // Access logs are drained, not kept: a load run writes a line per request.
    stdio: ["ignore", "ignore", "pipe"],
  });
  let errors = "";
  child.on("error", (error) => (errors += `${error.message}\n`));
  child.stderr?.on("data", (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4000);
  });
  const handle: Child = {
    url: `http://127.0.0.1:${options.port}`,
    process: child,
    async stop() {
      running.delete(handle);
      await stopChild(child);
    },
  };
  running.add(handle);
  const failure = (why: string) =>
    new Error(
      `${options.label} ${why}:\n${errors}${options.describeFailure?.() ?? ""}`,
    );
  const timeoutMs = options.timeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    // exitCode stays null when the command could not be spawned at all; errors says why.
    if (child.exitCode !== null || child.pid === undefined) {
      running.delete(handle);
      throw failure(`exited (${child.exitCode ?? "not started"})`);
    }
    try {
      const response = await fetch(handle.url + options.readyPath);
      await response.body?.cancel();
      return handle;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  await handle.stop();
  throw failure(`did not answer within ${timeoutMs / 1000} s`);
}

/** Stops every child still running; for the bench's finally and its signal handlers. */
export async function stopAllChildren(): Promise<void> {
  await Promise.all([...running].map((child) => child.stop()));
}
