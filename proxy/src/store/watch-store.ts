/**
 * What the re-checks of watched vehicles remember, in the proxy's store: each vehicle's latest
 * facts (or since when it could not be checked), the timeline of what changed, and its alerts:
 * one open alert per (registration, kind, key), so a fact alerts once while it holds, however
 * often a sweep runs; once closed, the same fact coming back alerts again.
 */
import type { AlertKind, VehicleFacts } from "@vics/shared";

export type TimelineArea = "found" | "insurance" | "mot" | "tax" | "fines";

export interface TimelineEntry {
  area: TimelineArea;
  /** The area's facts before; null the first time the vehicle was seen. */
  before: unknown;
  after: unknown;
}

export interface AlertRecord {
  kind: AlertKind;
  key: string;
  detail: Record<string, string | number | null>;
  /** Opened already closed: an end told ("insured again", "fines paid"). */
  resolved?: boolean;
}

export interface StoredAlert extends AlertRecord {
  id: number;
  registration: string;
  openedAt: number;
  closedAt: number | null;
}

export interface WatchState {
  registration: string;
  /** The facts of the last answered re-check; undefined before the first. */
  facts?: VehicleFacts;
  checkedAt?: number;
  /** Set while re-checks cannot answer: since the first that could not. */
  unknownSince?: number;
  openAlerts: StoredAlert[];
}

export type Recheck =
  | {
      registration: string;
      at: number;
      facts: VehicleFacts;
      timeline: TimelineEntry[];
      opened: AlertRecord[];
      closed: { kind: AlertKind; key: string }[];
    }
  /** Not answered: the facts stay as they were; the vehicle is unknown since now, if not before. */
  | { registration: string; at: number; unknown: true };

export interface StoredTimelineEntry extends TimelineEntry {
  at: number;
}

/** A timeline entry of one of a fleet's vehicles: "changed since" on the fleet's page. */
export interface FleetChange extends StoredTimelineEntry {
  registration: string;
}

/** A sweep, daily or asked for: when it ran and how it ended, for the admin and "missed once". */
export interface WatchRun {
  id: number;
  /** "daily", or "on demand" for "Check this fleet now". */
  kind: "daily" | "on demand";
  startedAt: number;
  finishedAt: number | null;
  /** null while it runs; "finished", "failed: <words>". */
  outcome: string | null;
  vehicles: number;
  unknown: number;
  alerts: number;
}

export interface WatchStore {
  startWatchRun(kind: WatchRun["kind"], at: number): Promise<number>;
  finishWatchRun(
    id: number,
    end: Pick<
      WatchRun,
      "finishedAt" | "outcome" | "vehicles" | "unknown" | "alerts"
    >,
  ): Promise<void>;
  /** Newest first. */
  watchRuns(limit: number): Promise<WatchRun[]>;
  /** The admin's settings of the re-checks (the daily time), by name. */
  watchSetting(name: string): Promise<string | undefined>;
  setWatchSetting(name: string, value: string): Promise<void>;
  /** The setting; `value` becomes it only if it has none yet (processes racing agree). */
  watchSettingOnce(name: string, value: string): Promise<string>;
  /** The state of each registration asked for; one never re-checked has no facts. */
  watchStates(registrations: readonly string[]): Promise<WatchState[]>;
  /**
   * Writes a batch of re-checks in one transaction: facts, timeline and alerts together, or
   * nothing. Returns the alerts this batch newly opened (none for a key already open).
   */
  recordRechecks(rechecks: readonly Recheck[]): Promise<StoredAlert[]>;
  /** Newest first. */
  vehicleTimeline(registration: string): Promise<StoredTimelineEntry[]>;
  /**
   * The timeline entries at or after `since` of the vehicles in the fleet now, newest first:
   * what moved, for the fleet page's "changed since".
   */
  fleetChangesSince(fleetId: string, since: number): Promise<FleetChange[]>;
  /** Newest first, open and closed. */
  vehicleAlerts(registration: string): Promise<StoredAlert[]>;
  /**
   * The in-app notifications of one user: the alerts of vehicles in a fleet now (a removed
   * vehicle falls silent), newest first, each with whether this user has read it.
   */
  notifications(
    userId: string,
    limit: number,
  ): Promise<{ alert: StoredAlert; read: boolean }[]>;
  unreadCount(userId: string): Promise<number>;
  /** How many watched vehicles (in a fleet now) have been unknown since before `before`. */
  unknownBefore(before: number): Promise<number>;
  /** Marks these alerts read for this user, or every one when "all". */
  markRead(userId: string, alertIds: readonly number[] | "all"): Promise<void>;
}
