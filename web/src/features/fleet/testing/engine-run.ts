// Test support: the engine's harness from @vics/fleet's tests (the fake clock, the run, the
// check every scenario ends with), here running the engine through the web app's API client,
// so that what it sends crosses msw's fake upstream (test-upstream.ts) as a user's run does.
import {
  startEngine as startEngineWith,
  type EngineRun,
} from "@vics/fleet/testing/engine-run";
import { apiFleetClient } from "../api/fleet-client.ts";

export {
  expectOneOutcomeEach,
  fakeClock,
  notCheckedReasons,
  quickTuning,
  registrationsNumbered,
  type EngineRun,
  type FakeClock,
} from "@vics/fleet/testing/engine-run";

export function startEngine(
  options: Omit<Parameters<typeof startEngineWith>[0], "client">,
): EngineRun {
  return startEngineWith({ ...options, client: apiFleetClient });
}
