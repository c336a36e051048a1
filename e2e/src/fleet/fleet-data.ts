// Test data for the fleet journeys: registrations the stack's seeded database holds (read from
// it directly, as an operator could), and the service's own answers for them, asked through the
// proxy, to hold the browser's accounting against.
import { DatabaseSync } from "node:sqlite";
import { CLIENT_HEADER, REFERENCE_REGISTRATIONS } from "@vics/shared";
import { join } from "node:path";
import { stackCookie } from "../auth/sign-in.ts";
import { stackEnv } from "../stack-env.ts";

/** The reference plates, which the journeys use by name. */
const NAMED = new Set<string>(REFERENCE_REGISTRATIONS);

/** `count` registrations of the synthetic fleet, in the database's order. */
export async function seededRegistrations(count: number): Promise<string[]> {
  const { dataDir } = await stackEnv();
  const db = new DatabaseSync(join(dataDir, "vics.sqlite"), { readOnly: true });
  try {
    const rows = db
      .prepare("SELECT registration FROM vehicles ORDER BY id LIMIT ?")
      .all(count + NAMED.size);
    return rows
      .map((row) => String(row.registration))
      .filter((registration) => !NAMED.has(registration))
      .slice(0, count);
  } finally {
    db.close();
  }
}

export type ApiOutcome = "insured" | "not-insured" | "not-found";

interface BulkItem {
  registration: string;
  insured: boolean;
  error?: string;
  policy?: { validTo: string };
}

/** What the service says of each registration, through the proxy as the browser asks it. */
export async function apiOutcomes(
  registrations: readonly string[],
): Promise<Map<string, { outcome: ApiOutcome; validTo?: string }>> {
  const { baseUrl, dataDir } = await stackEnv();
  const cookie = await stackCookie(baseUrl, dataDir);
  const answers = new Map<string, { outcome: ApiOutcome; validTo?: string }>();
  for (let start = 0; start < registrations.length; start += 1000) {
    const response = await fetch(`${baseUrl}/api/v1/vehicle/bulk-insurance`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        [CLIENT_HEADER]: "e2e",
        Cookie: cookie,
      },
      body: JSON.stringify({
        registrations: registrations.slice(start, start + 1000),
      }),
    });
    if (!response.ok) throw new Error(`bulk check answered ${response.status}`);
    const body = (await response.json()) as { results: BulkItem[] };
    for (const item of body.results)
      answers.set(item.registration, {
        outcome: item.error
          ? "not-found"
          : item.insured
            ? "insured"
            : "not-insured",
        validTo: item.policy?.validTo,
      });
  }
  return answers;
}
