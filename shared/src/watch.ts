import { LIVE_SOURCES } from "./fact-sources.ts";
import { z } from "zod";
import { MotStatusSchema, TaxStatusSchema } from "./compliance-record.ts";
import { ukMidnight } from "./uk-date.ts";

/**
 * Watched fleets' alerts (docs/watching.md): what a re-check can find that needs a fleet
 * manager. Each is a fact with a date; it alerts once, and closes itself when resolved.
 */
export const ALERT_KINDS = [
  /**
   * Lapsed, cancelled, or never insured once a new vehicle's 14 days are over; or not insured
   * with no word of which policy ended, when the upstream does not say.
   */
  "not-insured",
  "insured-again",
  /** A policy, MOT or road tax ending within 30, 14, 7 or 1 days, or today. */
  "ending",
  "mot-expired",
  /** Untaxed or SORN. */
  "untaxed",
  "new-fine",
  "fines-paid",
  "not-found",
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** Days before a date at which "ending" alerts, largest first; 0 is the day itself. */
export const ENDING_THRESHOLDS = [30, 14, 7, 1, 0] as const;
export type EndingThreshold = (typeof ENDING_THRESHOLDS)[number];

export const DUE_AREAS = ["insurance", "mot", "tax"] as const;
export type DueArea = (typeof DUE_AREAS)[number];

const DateSchema = z.iso.date();

export const PolicyFactsSchema = z.object({
  number: z.string(),
  insurer: z.string(),
  validFrom: DateSchema,
  validTo: DateSchema,
});

/** What the last answered re-check found about a watched vehicle. */
export const VehicleFactsSchema = z.object({
  found: z.boolean(),
  insurance: z
    .discriminatedUnion("status", [
      z.object({ status: z.literal("insured"), policy: PolicyFactsSchema }),
      /** Not on the record, but first registered in the last 14 days: not an alarm yet. */
      z.object({ status: z.literal("pending"), firstRegistered: DateSchema }),
      /**
       * `lastPolicy`: the most recent that ended; null when none ever was on the record; absent
       * when the upstream did not say (its answer lacks the extension of decision 021), which
       * is no claim that the vehicle was never insured.
       */
      z.object({
        status: z.literal("not-insured"),
        lastPolicy: PolicyFactsSchema.nullable().optional(),
      }),
    ])
    .optional(),
  /**
   * `source`: the live register that gave it (docs/sources.md); absent, VICS's own records. A
   * change of source alone is no change: the timeline compares the values. When the value
   * changes, it shows both facts, each with its source.
   */
  mot: z
    .object({
      status: MotStatusSchema,
      expiry: DateSchema.nullable(),
      source: z.enum(LIVE_SOURCES).optional(),
    })
    .optional(),
  tax: z
    .object({
      status: TaxStatusSchema,
      dueDate: DateSchema.nullable(),
      source: z.enum(LIVE_SOURCES).optional(),
    })
    .optional(),
  fines: z
    .object({ count: z.number().int(), totalPence: z.number().int() })
    .optional(),
});
export type VehicleFacts = z.infer<typeof VehicleFactsSchema>;
export type PolicyFacts = z.infer<typeof PolicyFactsSchema>;

export const AlertSchema = z.object({
  id: z.number().int(),
  registration: z.string(),
  kind: z.enum(ALERT_KINDS),
  detail: z.record(z.string(), z.union([z.string(), z.number(), z.null()])),
  openedAt: z.iso.datetime(),
  closedAt: z.iso.datetime().nullable(),
});
export type Alert = z.infer<typeof AlertSchema>;

export const TimelineEntrySchema = z.object({
  at: z.iso.datetime(),
  area: z.enum(["found", "insurance", "mot", "tax", "fines"]),
  before: z.unknown(),
  after: z.unknown(),
});

/** A vehicle of a saved fleet, as its re-checks left it. */
export const WatchedVehicleSchema = z.object({
  registration: z.string(),
  cells: z.array(z.string()),
  addedAt: z.iso.datetime(),
  /** The last answered re-check; null before the first. */
  checkedAt: z.iso.datetime().nullable(),
  /** Set while re-checks cannot answer: "Unknown since", never a stale green. */
  unknownSince: z.iso.datetime().nullable(),
  facts: VehicleFactsSchema.nullable(),
  /** Its open alerts. */
  alerts: z.array(AlertSchema),
  /** Asked with `changedSince`: its timeline entries since then, newest first (none: no move). */
  changes: z.array(TimelineEntrySchema).optional(),
});
export type WatchedVehicle = z.infer<typeof WatchedVehicleSchema>;

/** GET /api/fleets/{id}/status */
export const FleetStatusSchema = z.object({
  vehicles: z.array(WatchedVehicleSchema),
  /**
   * A check of this fleet is queued or under way: its first, started when it was saved, or
   * "Check this fleet now". A vehicle not checked yet is then "Checking now".
   */
  checking: z.boolean(),
});

/**
 * GET /api/fleets/{id}/status?changedSince=YYYY-MM-DD: what moved from the start of that UK day
 * (midnight in London, whichever side of the clock change), each vehicle with its `changes`.
 * Parsed, `changedSince` is that instant (ms).
 */
export const FleetStatusQuerySchema = z.object({
  changedSince: z
    .string()
    .transform((date, context) => {
      const instant = ukMidnight(date);
      if (instant !== undefined) return instant;
      context.addIssue({
        code: "custom",
        message: "Give a date as YYYY-MM-DD, such as 2026-11-24",
      });
      return z.NEVER;
    })
    .optional(),
});

/**
 * POST /api/fleets/{id}/check-now (202): the fleet's vehicles to be checked; `alreadyRunning`
 * when a check of this fleet was already queued or under way, and no second one was started.
 */
export const CheckNowSchema = z.object({
  queued: z.number().int(),
  alreadyRunning: z.boolean(),
});

/** GET /api/watched-vehicles/{registration}: every change seen, and every alert, newest first. */
export const VehicleHistorySchema = z.object({
  registration: z.string(),
  timeline: z.array(TimelineEntrySchema),
  alerts: z.array(AlertSchema),
});

/** GET /api/admin/watch: the daily time and the latest sweeps. PATCH takes `{ dailyTime }`. */
export const WatchAdminSchema = z.object({
  /** "HH:MM", UK time. */
  dailyTime: z.string(),
  /**
   * True once the re-checks' jobs have started; false when the proxy has no key of their own
   * (WATCH_API_KEY_FILE), or their job engine is starting or could not start.
   */
  reChecksOn: z.boolean(),
  /** When they are off, why, in words for the admin. */
  reChecksOff: z.string().optional(),
  /** Watched vehicles the re-checks have not had an answer for in over a day. */
  unknownForADay: z.number().int(),
  runs: z.array(
    z.object({
      /** "refresh": the register facts refreshed ahead of the daily sweep (issue 35). */
      kind: z.enum(["daily", "on demand", "refresh"]),
      startedAt: z.iso.datetime(),
      finishedAt: z.iso.datetime().nullable(),
      outcome: z.string().nullable(),
      vehicles: z.number().int(),
      unknown: z.number().int(),
      alerts: z.number().int(),
    }),
  ),
});

export const DailyTimeSchema = z.object({
  dailyTime: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, {
    error: 'Give the time as HH:MM in UK time, such as "06:00"',
  }),
});

/**
 * What a notification is about: an alert kind, or "first-check", a fleet's first check summed
 * up (its baseline: one notification for the fleet, not one per vehicle).
 */
export const NOTIFICATION_KINDS = [...ALERT_KINDS, "first-check"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Rows of the notifications page a page. */
export const NOTIFICATIONS_PAGE_SIZE = 20;
/** The most vehicles a sweep's row lists; it counts them all. */
export const NOTIFICATION_GROUP_ALERTS = 100;

/** GET /api/notifications?page=&fleet=&kind=: one page (from 1), of one fleet or kind or all. */
export const NotificationsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  fleet: z.string().min(1).max(200).optional(),
  kind: z.enum(NOTIFICATION_KINDS).optional(),
});

const FleetRefSchema = z.object({ id: z.string(), name: z.string() });

/**
 * A row of the notifications page. "alerts": a sweep's alerts of one kind in one fleet ("12
 * vehicles in Vans became untaxed"), the newest NOTIFICATION_GROUP_ALERTS listed; `runId` null
 * for an alert from before rows were grouped (a row of its own). "first-check": a fleet's first
 * check summed up: how many vehicles were checked for the first time, and how many of them
 * need attention.
 */
export const NotificationRowSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("alerts"),
    runId: z.number().int().nullable(),
    fleet: FleetRefSchema,
    kind: z.enum(ALERT_KINDS),
    /** The newest alert's opening. */
    at: z.iso.datetime(),
    count: z.number().int(),
    unread: z.number().int(),
    alerts: z.array(z.object({ alert: AlertSchema, read: z.boolean() })),
  }),
  z.object({
    type: z.literal("first-check"),
    id: z.number().int(),
    fleet: FleetRefSchema,
    at: z.iso.datetime(),
    vehicles: z.number().int(),
    attention: z.number().int(),
    read: z.boolean(),
  }),
]);
export type NotificationRow = z.infer<typeof NotificationRowSchema>;

/** GET /api/notifications: a page of rows, newest first, and how many are unread in all. */
export const NotificationsSchema = z.object({
  /** Unread alerts and first-check summaries, of every fleet and kind. */
  unread: z.number().int(),
  /** From 1; `pages` is at least 1. */
  page: z.number().int(),
  pages: z.number().int(),
  /** Rows of this fleet and kind, on every page. */
  total: z.number().int(),
  rows: z.array(NotificationRowSchema),
});

/** GET /api/notifications/unread, and the answer of POST /api/notifications/read. */
export const UnreadCountSchema = z.object({ unread: z.number().int() });

/**
 * POST /api/notifications/read: these alerts (`ids`), a sweep's row (`group`), a first-check
 * summary (`firstCheck`), or, when none of those is given, every one the page lists with the
 * same filter: of `fleet` (its id) and of `kind`, each when given ("Mark these as read"), else
 * all of them ("Mark all as read").
 */
export const MarkReadSchema = z.object({
  ids: z.array(z.number().int()).max(500).optional(),
  group: z
    .object({
      runId: z.number().int(),
      fleetId: z.string().min(1).max(200),
      kind: z.enum(ALERT_KINDS),
    })
    .optional(),
  firstCheck: z.number().int().optional(),
  fleet: NotificationsQuerySchema.shape.fleet,
  kind: NotificationsQuerySchema.shape.kind,
});
