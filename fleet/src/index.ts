// @vics/fleet: the fleet check's engine (chunks, pacing by the rate limit, retries, outcomes)
// and its rules (needs action, expiring soon, not yet on record), in plain TypeScript with no
// React and no DOM, so the browser's fleet run and the proxy's re-checks run the same code.
export type {
  ComplianceOutcome,
  FleetRow,
  InsuranceOutcome,
  RecordsAsOf,
  RunPhase,
  RunProgress,
  VehicleResult,
} from "./results.ts";
export type { FleetAnswer, FleetClient } from "./fleet-client.ts";
export {
  createHttpFleetClient,
  type HttpFleetClientOptions,
} from "./http-fleet-client.ts";
export { createFleetRun } from "./engine/fleet-run.ts";
export type {
  FleetRun,
  FleetRunOptions,
  RunEnd,
} from "./engine/fleet-run-types.ts";
export { DEFAULT_TUNING, type RunTuning } from "./engine/run-tuning.ts";
export { backoffDelay, sleep } from "./engine/backoff.ts";
export {
  REFUSED_ALONE_REASON,
  THROTTLED_REASON,
  UNAUTHORIZED_REASON,
  type AccessLost,
} from "./engine/request-failure.ts";
export { isNotChecked } from "./engine/result-assembly.ts";
export {
  RETRY,
  complianceOutcomes,
  insuranceOutcomes,
} from "./engine/bulk-outcomes.ts";
export { EXPIRING_SOON_DAYS, isExpiringSoon } from "./rules/expiry.ts";
export { notYetOnRecord, recordDeadline } from "./rules/not-yet-on-record.ts";
export {
  NEEDS_ACTION,
  OUTCOME_LABELS,
  OUTCOME_ORDER,
  rowCompliant,
  rowOutcome,
  type RowOutcome,
} from "./rules/row-outcome.ts";
export {
  DUE_KIND_WORDS,
  dueDates,
  dueSoon,
  type DueDates,
  type DueKind,
  type DueSoon,
} from "./rules/due-dates.ts";
