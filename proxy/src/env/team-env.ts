// The team application's own limits: look-ups per user a minute by role, the caps on saved and
// watched fleets, where alert emails may go, and the watched fleets' refresh ahead of the sweep.
import { ALERT_RULE_MAX_EMAILS, BULK_MAX_REGISTRATIONS } from "@vics/shared";
import { DEFAULT_USER_LIMITS } from "../team/limits/user-limits.ts";
import { DEFAULT_FLEET_CAPS } from "../team/store/fleet-store.ts";
import {
  DEFAULT_REFRESH_LEAD_MINUTES,
  MAX_REFRESH_LEAD_MINUTES,
} from "../team/schedule/daily-time.ts";
import { DEFAULT_MAX_EXTERNAL_EMAILS } from "../team/notify/email-domains.ts";
import {
  commaList,
  positiveWholeNumber,
  wholeNumber,
} from "@vics/server-kit/env-fields";

/** A domain name of at least two labels, as an email address's part after the @. */
const DOMAIN =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;

/**
 * A role that runs fleets sends up to BULK_MAX_REGISTRATIONS in one request: a smaller limit
 * would refuse a whole request that the fleet run's pacing could not have seen coming.
 */
const bulkRoleLimit = (fallback: number) =>
  positiveWholeNumber(fallback).refine(
    (lookups) => lookups >= BULK_MAX_REGISTRATIONS,
    {
      error: `must be at least ${BULK_MAX_REGISTRATIONS.toLocaleString("en-GB")}, the most registrations one fleet request may carry`,
    },
  );

export const TEAM_ENV_SHAPE = {
  USER_LOOKUPS_PER_MINUTE_STAFF: positiveWholeNumber(DEFAULT_USER_LIMITS.staff),
  USER_LOOKUPS_PER_MINUTE_FLEET: bulkRoleLimit(DEFAULT_USER_LIMITS.fleet),
  USER_LOOKUPS_PER_MINUTE_ADMIN: bulkRoleLimit(DEFAULT_USER_LIMITS.admin),
  MAX_FLEETS: positiveWholeNumber(DEFAULT_FLEET_CAPS.maxFleets),
  MAX_WATCHED_VEHICLES: positiveWholeNumber(
    DEFAULT_FLEET_CAPS.maxWatchedVehicles,
  ),
  // Unset: the domains of the team's own accounts.
  ALERT_EMAIL_DOMAINS: commaList
    .refine((domains) => domains.every((d) => DOMAIN.test(d)), {
      error: (issue) =>
        `must be email domains separated by commas, e.g. "fleet.example,depot.fleet.example"; "${(issue.input as string[]).find((d) => !DOMAIN.test(d))}" is not one`,
    })
    .optional(),
  ALERT_RULE_MAX_EXTERNAL_EMAILS: wholeNumber(DEFAULT_MAX_EXTERNAL_EMAILS, {
    min: 0,
    max: ALERT_RULE_MAX_EMAILS,
    tooLarge: `must be at most ${ALERT_RULE_MAX_EMAILS}, the most addresses a rule may have`,
  }),
  // Minutes before the daily sweep; 0 turns the refresh off. At most half a day, so that it
  // stays ahead of the sweep it is for, not after the one before.
  WATCH_REFRESH_LEAD_MINUTES: wholeNumber(DEFAULT_REFRESH_LEAD_MINUTES, {
    min: 0,
    max: MAX_REFRESH_LEAD_MINUTES,
    tooLarge: `must be at most ${MAX_REFRESH_LEAD_MINUTES} (12 hours before the daily sweep)`,
  }),
};
