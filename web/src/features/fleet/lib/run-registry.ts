// The run sessions of this page load, by run: one at a time per run, kept after they end so a
// run's page shows its last state without reading it back. Navigating away from a run's page
// does not stop it (not even to sign in again); closing the tab does, and the saved run can
// then be resumed. A run paused because its user's session ended goes on by itself when that
// user signs in again on this page; another user signing in ends the last one's sessions.
import type { SessionUser } from "@vics/shared";
import { onSignedIn } from "../../../lib/session-events.ts";
import { startRunSession, type RunSession } from "./engine/run-session.ts";
import type { FleetServices } from "./fleet-services.ts";
import { withRunLock } from "./run-lock.ts";

const sessions = new Map<string, RunSession>();
const listeners = new Set<() => void>();
let version = 0;

function changed(): void {
  version += 1;
  for (const listener of listeners) listener();
}

/** Changes whenever a session starts, ends or is dropped. */
export function sessionsVersion(): number {
  return version;
}

export function subscribeSessions(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function sessionFor(runId: string): RunSession | undefined {
  return sessions.get(runId);
}

/** Whether the run has a session that is still working (running or paused). */
export function isLive(session: RunSession | undefined): boolean {
  const status = session?.getSnapshot().run.status;
  return status === "running" || status === "paused";
}

/** Sessions being started, so that a second start (a double click) joins the first. */
const starting = new Map<string, Promise<RunSession>>();

/**
 * Starts (or resumes) checking a saved run; `registrations` re-checks exactly those (the rows
 * not checked). While the run already has a live session, or one on its way, that one is
 * returned: a run never has two sessions sending the same vehicles.
 */
export function startSession(
  services: FleetServices,
  runId: string,
  registrations?: readonly string[],
): Promise<RunSession> {
  const current = sessions.get(runId);
  if (current && isLive(current)) return Promise.resolve(current);
  const pending = starting.get(runId);
  if (pending) return pending;
  const started = withRunLock(runId, async () => {
    const session = await startRunSession({
      store: (await services.openStore()).store,
      client: services.client,
      runId,
      registrations,
      tuning: services.tuning,
    });
    sessions.set(runId, session);
    changed();
    void session.ended.then(changed);
    return session;
  }).finally(() => starting.delete(runId));
  starting.set(runId, started);
  return started;
}

/** Stops and forgets a run's session, as before its run is deleted. */
export function dropSession(runId: string): void {
  sessions.get(runId)?.abandon();
  sessions.delete(runId);
  changed();
}

/** Someone signed in on this page: their runs paused for it go on; nobody else's stay. */
export function resumeAfterSignIn(user: SessionUser): void {
  for (const [runId, session] of [...sessions]) {
    const { run, accessLost } = session.getSnapshot();
    if (run.ownerId !== user.id) dropSession(runId);
    else if (accessLost === "sign-in") session.resume();
  }
}

onSignedIn(resumeAfterSignIn);

/** Abandons every session: tests, and nothing else, need this. */
export function resetSessions(): void {
  for (const session of sessions.values()) session.abandon();
  sessions.clear();
  starting.clear();
  changed();
}
