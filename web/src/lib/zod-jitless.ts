// zod 4 probes whether eval is allowed (new Function) when it builds a schema, which the
// Content-Security-Policy blocks and reports as a violation; jitless skips the probe and zod's
// compiled fast path (e2e csp.spec.ts; docs/decisions/018-proxy-edges.md). Set where zod reads
// its configuration, shared by every copy of it, rather than through zod's config(): that keeps
// zod out of the first download (it loads with the first answer: lazy-schemas.ts). Imported
// first by main.tsx, so it is set before any schema is built.
import type { $ZodConfig } from "zod/v4/core";

const scope = globalThis as { __zod_globalConfig?: $ZodConfig };
scope.__zod_globalConfig ??= {};
scope.__zod_globalConfig.jitless = true;
