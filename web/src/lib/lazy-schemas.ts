// Loaders of the contract's schemas for the API client (see contract-schemas.ts): each loads
// zod and the schemas on first use, then answers at once.
import type {
  ComplianceRecord,
  InsuranceRecord,
  NotificationsSchema,
  Problem,
  RecentChecksSchema,
  SessionAnswer,
} from "@vics/shared";
import type { z } from "zod";

export type SchemaLoader<T> = () => Promise<z.ZodType<T>>;

const contract = () => import("./contract-schemas.ts");

export const insuranceRecordSchema: SchemaLoader<InsuranceRecord> = async () =>
  (await contract()).InsuranceRecordSchema;

export const complianceRecordSchema: SchemaLoader<
  ComplianceRecord
> = async () => (await contract()).ComplianceRecordSchema;

export const problemSchema: SchemaLoader<Problem> = async () =>
  (await contract()).ProblemSchema;

export const sessionSchema: SchemaLoader<SessionAnswer> = async () =>
  (await contract()).SessionSchema;

export type RecentChecksAnswer = z.infer<typeof RecentChecksSchema>;

export const recentChecksSchema: SchemaLoader<RecentChecksAnswer> = async () =>
  (await contract()).RecentChecksSchema;

export type NotificationsAnswer = z.infer<typeof NotificationsSchema>;

export const notificationsSchema: SchemaLoader<
  NotificationsAnswer
> = async () => (await contract()).NotificationsSchema;

export const unreadCountSchema: SchemaLoader<{ unread: number }> = async () =>
  (await contract()).UnreadCountSchema;
