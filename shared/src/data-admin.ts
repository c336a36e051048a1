// What the service says of its own data, for the admins' data page (docs/api.md, "The data
// behind the answers"): how fresh each source is, since when it holds data, and the operator's
// imports with their refused rows. Extensions beside the v1 checks, for a key on the internal
// plan (the proxy's); the proxy serves them to admins only.
import { z } from "zod";
import { IMPORT_KINDS } from "./import/rows.ts";
import { DataAsOfSchema } from "./point-in-time.ts";

export const DataSourcesSchema = z
  .object({
    since: z.iso
      .datetime()
      .optional()
      .describe("When VICS first held data: the seeding, or the first import"),
    historyFrom: z.iso
      .date()
      .optional()
      .describe(
        "The earliest day VICS's records cover: the first policy start or MOT test",
      ),
    dataAsOf: DataAsOfSchema,
    synthetic: z
      .boolean()
      .describe(
        "True while the database holds the seeded synthetic fleet and nothing imported",
      ),
    seededFleet: z
      .object({
        vehicles: z.number().int().min(0),
        seededOn: z.iso.date(),
      })
      .optional()
      .describe(
        "The synthetic fleet the database was seeded with, kept after imports over it: what an import did not load is still synthetic",
      ),
  })
  .meta({ id: "DataSources" });
export type DataSources = z.infer<typeof DataSourcesSchema>;

export const ImportEntrySchema = z
  .object({
    id: z.number().int(),
    kind: z.enum(IMPORT_KINDS),
    mode: z.enum(["upsert", "snapshot"]),
    fileName: z.string(),
    sha256: z.string(),
    bytes: z.number().int().min(0),
    runBy: z.string(),
    dataAsOf: z.iso.datetime().nullable(),
    startedAt: z.iso.datetime(),
    finishedAt: z.iso.datetime(),
    outcome: z.enum(["applied", "refused", "already-imported"]),
    message: z.string().nullable(),
    counts: z.object({
      rows: z.number().int().min(0),
      added: z.number().int().min(0),
      changed: z.number().int().min(0),
      unchanged: z.number().int().min(0),
      removed: z.number().int().min(0),
      rejected: z.number().int().min(0),
    }),
  })
  .meta({ id: "ImportEntry" });
export type ImportEntry = z.infer<typeof ImportEntrySchema>;

export const ImportListSchema = z
  .object({ imports: z.array(ImportEntrySchema) })
  .meta({ id: "ImportList" });
export type ImportList = z.infer<typeof ImportListSchema>;

export const ImportRejectsSchema = z
  .object({
    importId: z.number().int(),
    fileName: z.string(),
    /** Rows the import refused; `rejects` holds the first of their problems VICS keeps. */
    rejectedRows: z.number().int().min(0),
    rejects: z.array(
      z.object({
        line: z.number().int().min(0),
        column: z.string(),
        value: z.string(),
        reason: z.string(),
      }),
    ),
    /** True when the import refused more than VICS keeps: the full reject file has them all. */
    truncated: z.boolean(),
  })
  .meta({ id: "ImportRejects" });
export type ImportRejects = z.infer<typeof ImportRejectsSchema>;

/** How many imports the data page lists, newest first. */
export const IMPORTS_LISTED = 50;

export const DATA_PATHS = {
  sources: "/v1/data/sources",
  imports: "/v1/data/imports",
  rejects: (importId: number) => `/v1/data/imports/${importId}/rejects`,
  rejectsPattern: "/v1/data/imports/:id/rejects",
} as const;

/** The proxy's routes for the data page, admins only. */
export const ADMIN_DATA_PATHS = {
  sources: "/api/admin/data/sources",
  imports: "/api/admin/data/imports",
  rejects: (importId: number) =>
    `/api/admin/data/imports/${importId}/rejects.csv`,
  rejectsPattern: "/api/admin/data/imports/:id/rejects.csv",
} as const;
