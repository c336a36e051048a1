// The signed-in user's last single checks, from the proxy (GET /api/me/recent-checks, read from
// its audit log), so they follow the person to another computer and never stay behind on a
// shared one. A check just made shows at once, then the proxy's list replaces it.
import {
  queryOptions,
  useQuery,
  type QueryClient,
} from "@tanstack/react-query";
import {
  AUTH_PATHS,
  isCalendarDate,
  type RecentCheckVerdict,
} from "@vics/shared";
import { apiGet } from "./api-client.ts";
import { recentChecksSchema, type RecentChecksAnswer } from "./lazy-schemas.ts";

export const RECENT_CHECKS_QUERY_KEY = ["me", "recent-checks"] as const;
export const RECENT_CHECKS_LIMIT = 10;

/** What the page used to keep in localStorage: removed, so a shared computer shows none of it. */
const OLD_BROWSER_KEY = "vics:recent-checks";

export type RecentCheckKind = "insurance" | "compliance";

export interface RecentCheck {
  registration: string;
  kind: RecentCheckKind;
  /** Words for the result, e.g. "Insured", "Not compliant", "No vehicle found". */
  outcome: string;
  /** An ISO 8601 instant. */
  checkedAt: string;
  /** The day asked about ("YYYY-MM-DD"), for a check on a date. */
  date?: string;
}

type AnswerCheck = RecentChecksAnswer["checks"][number];

const VERDICT_WORDS: Record<RecentCheckVerdict, string> = {
  insured: "Insured",
  "not-insured": "Not insured",
  compliant: "Compliant",
  "not-compliant": "Not compliant",
  "not-found": "No vehicle found",
};

const KINDS: Partial<Record<AnswerCheck["action"], RecentCheckKind>> = {
  "check.insurance": "insurance",
  "check.compliance": "compliance",
};

/** The words for a check the proxy did not give a verdict for, by its HTTP status. */
function outcomeWords(check: AnswerCheck): string | undefined {
  if (check.verdict) return VERDICT_WORDS[check.verdict];
  if (check.outcome === "200") return "Checked";
  if (check.outcome === "404") return VERDICT_WORDS["not-found"];
  // Refused or failed: no answer to go back to.
  return undefined;
}

/**
 * The single checks with an answer, newest first, one per vehicle and kind (a later check of
 * the same vehicle replaces an earlier one). Fleet checks are listed on the fleet page.
 */
export function toRecentChecks(answer: RecentChecksAnswer): RecentCheck[] {
  const seen = new Set<string>();
  const checks: RecentCheck[] = [];
  for (const check of answer.checks) {
    const kind = KINDS[check.action];
    const [registration, ...others] = check.registrations;
    const outcome = outcomeWords(check);
    if (!kind || registration === undefined || others.length > 0) continue;
    if (!/^[A-Z0-9]{1,7}$/.test(registration) || outcome === undefined)
      continue;
    if (Number.isNaN(Date.parse(check.at))) continue;
    const date =
      check.date !== undefined && isCalendarDate(check.date)
        ? check.date
        : undefined;
    const key = `${kind} ${registration} ${date ?? "today"}`;
    if (seen.has(key)) continue;
    seen.add(key);
    checks.push({
      registration,
      kind,
      outcome,
      checkedAt: check.at,
      ...(date && { date }),
    });
    if (checks.length === RECENT_CHECKS_LIMIT) break;
  }
  return checks;
}

export function recentChecksQueryOptions() {
  return queryOptions({
    queryKey: RECENT_CHECKS_QUERY_KEY,
    queryFn: ({ signal }) =>
      apiGet(AUTH_PATHS.recentChecks, recentChecksSchema, { signal }),
  });
}

export function useRecentChecks() {
  return useQuery({ ...recentChecksQueryOptions(), select: toRecentChecks });
}

export interface NewRecentCheck {
  registration: string;
  kind: RecentCheckKind;
  verdict: RecentCheckVerdict;
  checkedAt?: Date;
  /** The day asked about, for a check on a date. */
  date?: string;
}

/** A check just answered: first in the list at once, then the proxy's own list is read again. */
export function addRecentCheck(
  queryClient: QueryClient,
  check: NewRecentCheck,
): void {
  const entry: AnswerCheck = {
    at: (check.checkedAt ?? new Date()).toISOString(),
    action: check.kind === "insurance" ? "check.insurance" : "check.compliance",
    registrations: [check.registration],
    outcome: check.verdict === "not-found" ? "404" : "200",
    verdict: check.verdict,
    ...(check.date && { date: check.date }),
  };
  queryClient.setQueryData<RecentChecksAnswer>(
    RECENT_CHECKS_QUERY_KEY,
    (old) => ({ checks: [entry, ...(old?.checks ?? [])] }),
  );
  void queryClient.invalidateQueries({ queryKey: RECENT_CHECKS_QUERY_KEY });
}

/** Removes the list an earlier version kept in this browser (it named no user). */
export function forgetBrowserRecentChecks(): void {
  try {
    window.localStorage.removeItem(OLD_BROWSER_KEY);
  } catch {
    // Storage blocked: nothing could have been kept there either.
  }
}
