// Child processes for `npm start`: prefixed output, readiness polling, and one stop for all.
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";

const children = new Set<ChildProcess>();

function prefixLines(
  stream: NodeJS.ReadableStream | null,
  label: string,
  out: NodeJS.WriteStream,
) {
  if (!stream) return;
  createInterface({ input: stream }).on("line", (line) =>
    out.write(`[${label}] ${line}\n`),
  );
}

export function startChild(
  label: string,
  args: string[],
  cwd: string,
  env: Record<string, string | undefined>,
): ChildProcess {
  const child = spawn(process.execPath, args, {
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
  prefixLines(child.stdout, label, process.stdout);
  prefixLines(child.stderr, label, process.stderr);
  child.on("exit", (code, signal) => {
    children.delete(child);
    if (stopping) return;
    console.error(
      `[${label}] stopped unexpectedly (${signal ?? `exit code ${code}`}); stopping VICS.`,
    );
    void stopAll().then(() => process.exit(1));
  });
  return child;
}

let stopping = false;

export async function stopAll(): Promise<void> {
  stopping = true;
  const exits = [...children].map(
    (child) =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5000).unref();
      }),
  );
  await Promise.all(exits);
}

export function runToEnd(
  command: string,
  args: string[],
  cwd: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: "inherit" });
    child.on("exit", (code) =>
      code === 0
        ? resolve()
        : reject(
            new Error(
              `${command} ${args.join(" ")} failed (exit code ${code})`,
            ),
          ),
    );
  });
}

/** Polls a URL until it answers at all (any status), or the child exits, or 120 s pass. */
export async function waitForHttp(
  url: string,
  child: ChildProcess,
): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`${url}: the process exited before it was ready`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(2000) });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`${url} did not answer within 120 seconds`);
}
