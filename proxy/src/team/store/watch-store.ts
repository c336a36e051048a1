/**
 * What the re-checks of watched vehicles remember, in the proxy's store: each vehicle's latest
 * facts (or since when it could not be checked), the timeline of what changed, and its alerts:
 * one open alert per (registration, kind, key), so a fact alerts once while it holds, however
 * often a sweep runs; once closed, the same fact coming back alerts again.
 */
import type { AlertKind, NotificationKind, VehicleFacts } from "@vics/shared";

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
      /**
       * The vehicle's first answered check (no facts before): its baseline. Its alerts are kept
       * open for the fleet's page, but neither notified nor delivered one by one; each fleet
       * holding it counts it in that sweep's first-check summary (decision 054).
       */
      baseline?: boolean;
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
  /**
   * "daily", "on demand" for "Check this fleet now", or "refresh": the register facts refreshed
   * ahead of the daily sweep (its counts in `outcome`'s words, its vehicles those sent).
   */
  kind: "daily" | "on demand" | "refresh";
  startedAt: number;
  finishedAt: number | null;
  /** null while it runs; "finished", "failed: <words>". */
  outcome: string | null;
  vehicles: number;
  unknown: number;
  alerts: number;
}

/** A first check's summary: how many of a fleet's vehicles a sweep saw first, and needing what. */
export interface StoredBaseline {
  id: number;
  fleetId: string;
  fleetName: string;
  runId: number;
  /** The last batch that added to it. */
  at: number;
  vehicles: number;
  /** Of them, those the check left with an open alert. */
  attention: number;
}

/** What the notifications page asks for: a page of its rows, of one fleet or kind, or all. */
export interface NotificationQuery {
  userId: string;
  fleetId?: string;
  /** An alert kind (alert rows only), or "first-check" (the summaries only). */
  kind?: NotificationKind;
  /** From 0. */
  page: number;
  pageSize: number;
  /** The most alerts a group row lists (the rest are counted). */
  groupAlerts: number;
}

/**
 * A row of the notifications page: a sweep's alerts of one kind in one fleet (an alert opened
 * before alerts were grouped is a group of its own), or a fleet's first-check summary.
 */
export type NotificationRow =
  | {
      type: "alerts";
      /** The sweep's watch run; null for an alert older than the grouping. */
      runId: number | null;
      fleetId: string;
      fleetName: string;
      kind: AlertKind;
      /** The newest alert's opening. */
      at: number;
      count: number;
      unread: number;
      /** The newest `groupAlerts` of them. */
      alerts: { alert: StoredAlert; read: boolean }[];
    }
  | { type: "first-check"; baseline: StoredBaseline; read: boolean };

/** What is marked read: alerts, a group row's alerts, a summary, or everything. */
export type ReadTarget =
  | { alerts: readonly number[] }
  /** A sweep's row (an older alert's row is marked by its id). */
  | { group: { runId: number; fleetId: string; kind: AlertKind } }
  | { firstCheck: number }
  /**
   * Every notification the page lists with this filter (NotificationQuery's): of one fleet, of
   * one kind, or both. An alert of a vehicle in two fleets is read in both, as any read is.
   */
  | { matching: { fleetId?: string; kind?: NotificationKind } };

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
  /**
   * The newest run of this kind, with this outcome when one is given, however many other runs
   * came after it: what a refresh said last, or the last daily sweep that finished, which a
   * page of the newest runs may no longer hold.
   */
  lastWatchRun(
    kind: WatchRun["kind"],
    outcome?: string,
  ): Promise<WatchRun | undefined>;
  /** The admin's settings of the re-checks (the daily time), by name. */
  watchSetting(name: string): Promise<string | undefined>;
  setWatchSetting(name: string, value: string): Promise<void>;
  /** The setting; `value` becomes it only if it has none yet (processes racing agree). */
  watchSettingOnce(name: string, value: string): Promise<string>;
  /** The state of each registration asked for; one never re-checked has no facts. */
  watchStates(registrations: readonly string[]): Promise<WatchState[]>;
  /**
   * Those of `registrations` that have no facts yet (never answered by a re-check), in their
   * order: what a fleet's first check must ask for. Read in slices, so a 100,000-vehicle list
   * never holds the event loop.
   */
  unanswered(registrations: readonly string[]): Promise<string[]>;
  /**
   * Writes a batch of re-checks in one transaction: facts, timeline and alerts together, or
   * nothing. Returns the alerts this batch newly opened (none for a key already open).
   */
  recordRechecks(
    rechecks: readonly Recheck[],
    /** The sweep's watch run: its alerts are grouped by it, its baselines summed per fleet. */
    runId?: number,
  ): Promise<StoredAlert[]>;
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
   * The in-app notifications of one user, a page of rows newest first: the alerts of vehicles
   * in a fleet now (a removed vehicle falls silent; a baseline alert is no notification),
   * grouped by sweep, fleet and kind, and the fleets' first-check summaries; with how many rows
   * there are in all.
   */
  notificationPage(
    query: NotificationQuery,
  ): Promise<{ rows: NotificationRow[]; total: number }>;
  /** Unread alerts (each once, whatever fleets hold it) and unread first-check summaries. */
  unreadCount(userId: string): Promise<number>;
  /** How many watched vehicles (in a fleet now) have been unknown since before `before`. */
  unknownBefore(before: number): Promise<number>;
  /** Marks these read for this user, those of a fleet or kind, or every one when matching {}. */
  markRead(userId: string, target: ReadTarget): Promise<void>;
}
