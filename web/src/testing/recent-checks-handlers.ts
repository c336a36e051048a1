// A fake of the proxy's "recent checks" (GET /api/me/recent-checks): it lists the single
// checks the fake check endpoints (api-handlers.ts) answered with 200 or 404 during the test,
// newest first, as the proxy reads them from its audit log.
import {
  AUTH_PATHS,
  type RecentCheckVerdict,
  type RecentChecksSchema,
} from "@vics/shared";
import { HttpResponse, http } from "msw";
import type { z } from "zod";

type Check = z.infer<typeof RecentChecksSchema>["checks"][number];

let checks: Check[] = [];

export function resetFakeRecentChecks(): void {
  checks = [];
}

/** What a proxy would record of a single check's answer. */
export async function recordFakeCheck(
  kind: "insurance" | "compliance",
  registration: string,
  response: Response,
): Promise<void> {
  if (response.status !== 200 && response.status !== 404) return;
  let verdict: RecentCheckVerdict = "not-found";
  if (response.status === 200) {
    // An answer that breaks the contract is not a check the proxy would have let through.
    const body = (await response.json().catch(() => undefined)) as
      { insured?: boolean; compliant?: boolean } | undefined;
    if (
      typeof body?.insured !== "boolean" &&
      typeof body?.compliant !== "boolean"
    )
      return;
    verdict =
      kind === "insurance"
        ? body?.insured
          ? "insured"
          : "not-insured"
        : body?.compliant
          ? "compliant"
          : "not-compliant";
  }
  checks.unshift({
    at: new Date().toISOString(),
    action: kind === "insurance" ? "check.insurance" : "check.compliance",
    registrations: [registration],
    outcome: String(response.status),
    verdict,
  });
}

export const recentChecksHandler = http.get(AUTH_PATHS.recentChecks, () =>
  HttpResponse.json({ checks }),
);
