// `@vics/shared/testing/kill-on-exit`: whatever happens to the process that started a server
// (an error it did not catch, process.exit), the server does not outlive it holding its port:
// every child handed to killOnExit is killed (SIGKILL) on the way out, unless it has exited
// already. A child started in a process group of its own (`detached`) is killed with its whole
// group, its own children included. Test and tool support, never imported by an app.
import type { ChildProcess } from "node:child_process";

/** The children still running, and whether each leads a process group of its own. */
const running = new Map<ChildProcess, { group: boolean }>();

process.once("exit", () => {
  for (const [child, { group }] of running) {
    try {
      if (group) process.kill(-child.pid!, "SIGKILL");
      else child.kill("SIGKILL");
    } catch {
      // Gone already.
    }
  }
});

/**
 * Kills `child` when this process exits; `group`: it was started `detached`, and its whole
 * process group goes. Forgotten once the child exits.
 */
export function killOnExit(
  child: ChildProcess,
  options: { group?: boolean } = {},
): void {
  if (child.pid === undefined) return;
  running.set(child, { group: options.group ?? false });
  child.once("exit", () => running.delete(child));
}
