// The contract's schemas the pages of every visit check answers with. Imported only through
// lazy-schemas.ts, so that zod and these schemas are not in the app's first download (a fifth
// of it): they load while the first request is on its way.
export {
  ComplianceRecordSchema,
  InsuranceRecordSchema,
  NotificationsSchema,
  UnreadCountSchema,
  ProblemSchema,
  RecentChecksSchema,
  SessionSchema,
} from "@vics/shared";
