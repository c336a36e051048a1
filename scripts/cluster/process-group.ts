// What the cluster's long-running programs (the replicas, nginx, Prometheus and nginx's
// exporter) share: each started in a process group of its own and never outliving the cluster,
// polled until its HTTP readiness answers, and stopped with one signal, then SIGKILL.
import {
  spawn,
  type ChildProcess,
  type SpawnOptions,
} from "node:child_process";
import { once } from "node:events";
import { killOnExit } from "@vics/shared/testing/kill-on-exit";

/**
 * Spawns `command` in a process group of its own (Ctrl-C reaches the cluster, which stops its
 * programs in order, not all at once), killed with its whole group when the cluster's process
 * exits, whatever happens.
 */
export function spawnInGroup(
  command: string,
  args: readonly string[],
  options: Omit<SpawnOptions, "detached">,
): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  killOnExit(child, { group: true });
  return child;
}

/** Whether GET `url` answers 2xx within 2 s; false while nothing listens there. */
export async function answersOk(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * Sends `signal`, then SIGKILL if it has not exited after `killAfterMs`; resolves once it has
 * exited. Nothing to do when it never started or has exited already.
 */
export async function stopChild(
  child: ChildProcess | undefined,
  signal: NodeJS.Signals,
  killAfterMs: number,
): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill(signal);
  const timer = setTimeout(() => child.kill("SIGKILL"), killAfterMs);
  await exited;
  clearTimeout(timer);
}
