// The bench's own servers (extra proxies, the hello app, nginx): each a child process on a free
// loopback port, awaited until it answers, and every one stopped by stopAllChildren() however
// the bench ends. scripts/load/stack.ts does the same for the service and its first proxy.
import { spawn, type ChildProcess } from "node:child_process";
import { stopChild } from "../scripts/load/stack.ts";

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
  const deadline = Date.now() + 60_000;
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
  throw failure("did not answer within 60 s");
}

/** Stops every child still running; for the bench's finally and its signal handlers. */
export async function stopAllChildren(): Promise<void> {
  await Promise.all([...running].map((child) => child.stop()));
}
