// What a fleet check learns about each vehicle, and how a run reports its progress: the web
// app's fleet run, its saved runs and exports, and the proxy's re-checks all speak these.
import type {
  ComplianceChecks,
  ComplianceDetails,
  DataAsOf,
  FactSources,
  Policy,
  RateLimitState,
  Vehicle,
} from "@vics/shared";

/** One row of the user's list once its registration column is chosen. */
export interface FleetRow {
  line: number;
  /** The registration cell exactly as it was in the user's list. */
  submitted: string;
  /** The user's correction, when they fixed the registration before sending. */
  edited?: string;
  /** The row's other cells, in column order; their names are the run's `extraColumns`. */
  extra: string[];
  /** The normalised registration, when valid. */
  registration?: string;
  /** Why it is not a valid registration, with the valid O/0, I/1 lookalikes. */
  invalid?: { reason: string; suggestions: string[] };
  /** Left out by the user before sending; still listed in results and exports as "excluded". */
  excluded?: boolean;
  /** Typed in by the user at "Check your list", not in their list: numbered after its rows. */
  added?: boolean;
}

/** The answer about one vehicle's insurance, as the run ends for it. */
export type InsuranceOutcome =
  | { status: "insured"; policy: Policy; vehicle?: Vehicle }
  | {
      status: "not-insured";
      /**
       * The most recent policy that ended, or null when there never was one; absent when the
       * upstream did not say (its answer lacks the extension of decision 021).
       */
      lastPolicy?: Policy | null;
      vehicle?: Vehicle;
    }
  | { status: "not-found" }
  /** The service did not accept the registration (the web app's own check let it through). */
  | { status: "invalid" }
  /** Not answered after every retry; the user can retry these rows. */
  | { status: "not-checked"; reason: string };

export type ComplianceOutcome =
  | {
      status: "checked";
      compliant: boolean;
      checks: ComplianceChecks;
      details?: ComplianceDetails;
      vehicle?: Vehicle;
      /** Which live register gave the road tax and MOT facts, and when (issue 35). */
      factSources?: FactSources;
      /**
       * When VICS's own records of road tax and MOT were last refreshed: the answer's dataAsOf,
       * which dates a component factSources does not name.
       */
      recordsAsOf?: RecordsAsOf;
    }
  | { status: "not-found" }
  | { status: "invalid" }
  | { status: "not-checked"; reason: string };

/** The answer's dataAsOf for the two components a live register can give (UTC instants). */
export type RecordsAsOf = Pick<DataAsOf, "tax" | "mot">;

/** Everything a run learned about one unique registration. */
export interface VehicleResult {
  registration: string;
  insurance: InsuranceOutcome;
  /** Only when the run also checks compliance. */
  compliance?: ComplianceOutcome;
  /** When the answer arrived (ISO timestamp). */
  checkedAt: string;
}

export type RunPhase =
  | "running"
  | "waiting" // for the rate limit, or before a retry
  | "paused"
  | "finished"
  | "cancelled";

/** What the page shows while a run goes on. */
export interface RunProgress {
  phase: RunPhase;
  /** Unique registrations the run must answer. */
  total: number;
  /** Answered so far, "not checked" ones included. */
  done: number;
  notChecked: number;
  /** When waiting: until when (ms since epoch), and why, in words ("Waiting 23 s for the rate limit"). */
  waitUntil?: number;
  message?: string;
  /** The latest rate-limit reading the run has seen. */
  rateLimit?: RateLimitState;
  /** Registrations answered per second since the run (or its resumption) started. */
  ratePerSecond?: number;
  /** Seconds left at that rate. */
  secondsLeft?: number;
}
