// What the gateway asks of the team application, and nothing more (decision 064): who is
// asking (asker.ts), whether they may, and that a check is recorded. The gateway declares these
// ports and imports nothing from team/; app.ts wires the team's parts to them (the session
// middleware sets the asker, its requireRole answers "may they", and the limit and audit
// stages go round the forward: "record it" is the gateway's Forward itself, forward/forward.ts,
// which each stage takes and returns).
import type { Role } from "@vics/shared";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./http/app-env.ts";

/** May they: lets through only an asker with `role` or a role above it, else answers itself. */
export type RequireRole = (role: Role) => MiddlewareHandler<AppEnv>;

/** The team's side of the gateway, as app.ts hands it over. */
export interface TeamPorts {
  requireRole: RequireRole;
}
