// The live registers as the admins' sources page shows them (docs/sources.md): an extension
// beside the v1 checks, for a key on the internal plan (the proxy's), which serves it to admins.
import { z } from "zod";
import { LIVE_SOURCES } from "./fact-sources.ts";

/**
 * Why a register could not answer, in an operator's terms:
 * - credentials: wrong or revoked key, or a client secret the token endpoint refuses
 * - quota: the provider refused for its own limit (429)
 * - maintenance: the provider said it is down for maintenance (503)
 * - unavailable: 5xx, a time-out, a refused connection
 * - malformed: an answer that does not parse as the provider's documents say
 * - refused: the provider called the request bad (400): a registration it will not take
 */
export const REGISTER_ERROR_KINDS = [
  "credentials",
  "quota",
  "maintenance",
  "unavailable",
  "malformed",
  "refused",
] as const;

export const RegisterStatusSchema = z
  .object({
    source: z.enum(LIVE_SOURCES),
    on: z.boolean().describe("Whether the service's environment turns it on"),
    baseUrl: z.string().nullable().describe("The address it calls, when on"),
    lastSuccessAt: z.iso.datetime().nullable(),
    lastError: z
      .object({
        at: z.iso.datetime(),
        kind: z.enum(REGISTER_ERROR_KINDS),
        message: z.string().describe("In words an operator can act on"),
      })
      .nullable()
      .describe("The last failure, when it came after the last success"),
    requestsToday: z
      .object({
        used: z.number().int().min(0),
        quota: z.number().int().min(1),
      })
      .nullable()
      .describe("Requests counted against today's quota (UTC day), when on"),
    staleFacts: z
      .number()
      .int()
      .min(0)
      .nullable()
      .describe(
        "Held vehicles whose fact from this register is older than its freshness window, or never fetched, when on",
      ),
    secretExpires: z.iso
      .date()
      .optional()
      .describe(
        "When the client secret expires, where the register has one and it is configured",
      ),
    secretExpiresSoon: z
      .boolean()
      .optional()
      .describe("True from 30 days before secretExpires"),
  })
  .meta({ id: "RegisterStatus" });
export type RegisterStatus = z.infer<typeof RegisterStatusSchema>;

export const RegistersSchema = z
  .object({ registers: z.array(RegisterStatusSchema) })
  .meta({ id: "Registers" });
export type Registers = z.infer<typeof RegistersSchema>;

export const REGISTERS_PATH = "/v1/data/registers";
/** The proxy's route for the sources page, admins only. */
export const ADMIN_REGISTERS_PATH = "/api/admin/data/registers";

/**
 * POST /v1/data/registers/refresh, with a bulk check's body: queue these vehicles' stale facts
 * behind every check, without waiting (the watched fleets' refresh ahead of their daily sweep).
 */
export const RegisterRefreshQueuedSchema = z
  .object({
    on: z
      .boolean()
      .describe("False when no register is on: nothing was queued"),
    queued: z
      .number()
      .int()
      .min(0)
      .describe("Requests queued, one per vehicle and register"),
    fresh: z
      .number()
      .int()
      .min(0)
      .describe("Vehicles whose facts were fresh already"),
    invalid: z
      .array(z.string())
      .describe("Entries that are not registrations, as sent"),
  })
  .meta({ id: "RegisterRefreshQueued" });
export type RegisterRefreshQueued = z.infer<typeof RegisterRefreshQueuedSchema>;

export const REGISTERS_REFRESH_PATH = "/v1/data/registers/refresh";
