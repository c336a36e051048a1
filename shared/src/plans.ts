import { z } from "zod";

/** Requests per 60-second window for each subscription plan. */
export const PLAN_LIMITS = {
  trial: 10,
  standard: 120,
  fleet: 1200,
  internal: 100000,
} as const;

export const PlanSchema = z.enum(["trial", "standard", "fleet", "internal"]);
export type Plan = z.infer<typeof PlanSchema>;

/** Requests without a valid key are limited per client address. */
export const UNAUTHENTICATED_LIMIT = 30;
