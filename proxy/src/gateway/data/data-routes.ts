// The admins' data page (docs/operations.md, "The data page"): the service's account of its own
// data, fetched with the proxy's key (which must be on the internal plan), and each import's
// refused rows as a CSV that opens in Excel with nothing in it run as a formula. The sources page
// (docs/sources.md): the live registers' state, the same way.
import type { Hono } from "hono";
import { CSV_MEDIA_TYPE, toCsv } from "@vics/shared";
import {
  ADMIN_DATA_PATHS,
  DATA_PATHS,
  DataSourcesSchema,
  ImportListSchema,
  ImportRejectsSchema,
} from "@vics/shared/data-admin";
import {
  ADMIN_REGISTERS_PATH,
  REGISTERS_PATH,
  RegistersSchema,
} from "@vics/shared/registers-admin";
import { ProblemError } from "@vics/server-kit/problem-error";
import type { Forward } from "../forward/forward.ts";
import { responseOf } from "../forward/operation.ts";
import type { AppEnv } from "../http/app-env.ts";
import { shapeAnswer } from "../upstream/upstream-contract.ts";
import type { TeamPorts } from "../ports.ts";

const REJECT_HEADER = ["Line", "Column", "Value", "Reason"];

// The service's account of its data: its shape is the whole contract, and none is a check.
const SOURCES = { answer: shapeAnswer(DataSourcesSchema) };
const IMPORTS = { answer: shapeAnswer(ImportListSchema) };
const REJECTS = { answer: shapeAnswer(ImportRejectsSchema) };
const REGISTERS = { answer: shapeAnswer(RegistersSchema) };

/** The data pages' routes, for admins only (`team.requireRole`). */
export function registerDataRoutes(
  app: Hono<AppEnv>,
  forward: Forward,
  team: TeamPorts,
) {
  const admin = team.requireRole("admin");
  app.get(ADMIN_DATA_PATHS.sources, admin, (c) =>
    forward(c, SOURCES, { path: DATA_PATHS.sources }).then(responseOf),
  );
  app.get(ADMIN_DATA_PATHS.imports, admin, (c) =>
    forward(c, IMPORTS, { path: DATA_PATHS.imports }).then(responseOf),
  );
  app.get(ADMIN_REGISTERS_PATH, admin, (c) =>
    forward(c, REGISTERS, { path: REGISTERS_PATH }).then(responseOf),
  );
  app.get(ADMIN_DATA_PATHS.rejectsPattern, admin, async (c) => {
    const text = c.req.param("id");
    const id = Number(text);
    if (!/^\d{1,15}$/.test(text))
      throw new ProblemError(
        404,
        "NOT_FOUND",
        `There is no import ${text}. The data page lists every import.`,
      );
    const { response, answer } = await forward(c, REJECTS, {
      path: DATA_PATHS.rejects(id),
    });
    // The forwarder has parsed the answer with its contract: a 200 always has one.
    if (answer === undefined) return response;
    const table = [
      REJECT_HEADER,
      ...answer.rejects.map((reject) => [
        String(reject.line),
        reject.column,
        reject.value,
        reject.reason,
      ]),
    ];
    return c.body(toCsv(table), 200, {
      "Content-Type": CSV_MEDIA_TYPE,
      "Content-Disposition": `attachment; filename="import-${id}-rejects.csv"`,
      "Cache-Control": "no-store",
    });
  });
}
