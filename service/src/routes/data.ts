// What the service says of its own data (docs/api.md, "The data behind the answers"): how
// fresh each source is, for any key; the operator's imports and each one's refused rows, for a
// key on the internal plan only (the proxy's, which shows them to admins on the data page).
import {
  DATA_PATHS,
  type DataSources,
  type ImportEntry,
  IMPORTS_LISTED,
  type ImportRejects,
} from "@vics/shared/data-admin";
import { ProblemError } from "@vics/server-kit/problem-error";
import type { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppDeps } from "../app-deps.ts";
import type { AppEnv } from "../http/app-env.ts";
import { requireApiKey } from "../http/rate-limit.ts";
import { SOURCES } from "../store/data-info.ts";
import { type ImportRecord, REJECTS_KEPT } from "../store/import-store.ts";
import { dataAsOf } from "./answer-time.ts";

/** The imports hold the operator's files' names and refused rows: not for every client. */
export const requireInternalKey = createMiddleware<AppEnv>(async (c, next) => {
  if (c.get("apiKey")?.plan !== "internal")
    throw new ProblemError(
      403,
      "FORBIDDEN",
      "The import history needs a key on the internal plan, such as the proxy's.",
    );
  await next();
});

const entry = ({ file, ...record }: ImportRecord): ImportEntry => ({
  ...record,
  fileName: file.name,
  sha256: file.sha256,
  bytes: file.bytes,
});

export function dataRoutes(app: Hono<AppEnv>, deps: AppDeps): void {
  app.get(DATA_PATHS.sources, requireApiKey, async (c) => {
    const info = await deps.store.dataInfo();
    const sources: DataSources = {
      ...(info.since && { since: info.since }),
      ...(info.historyFrom && { historyFrom: info.historyFrom }),
      dataAsOf: dataAsOf(info, SOURCES),
      synthetic: await deps.store.holdsSyntheticFleet(),
      ...(info.seeded && {
        seededFleet: {
          vehicles: info.seeded.vehicles,
          seededOn: info.seeded.on,
        },
      }),
    };
    return c.json(sources);
  });
  app.get(DATA_PATHS.imports, requireApiKey, requireInternalKey, async (c) =>
    c.json({
      imports: (await deps.store.listImports(IMPORTS_LISTED)).map(entry),
    }),
  );
  app.get(
    DATA_PATHS.rejectsPattern,
    requireApiKey,
    requireInternalKey,
    async (c) => {
      const id = Number(c.req.param("id"));
      const record = Number.isSafeInteger(id)
        ? await deps.store.findImport(id)
        : undefined;
      if (!record)
        throw new ProblemError(
          404,
          "NOT_FOUND",
          `There is no import ${c.req.param("id")}. The data page lists every import.`,
        );
      const rejects = await deps.store.importRejects(id);
      const answer: ImportRejects = {
        importId: id,
        fileName: record.file.name,
        rejectedRows: record.counts.rejected,
        rejects,
        truncated: rejects.length >= REJECTS_KEPT,
      };
      return c.json(answer);
    },
  );
}
