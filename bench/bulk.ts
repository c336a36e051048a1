// Bulk checks of 1,000 random fleet registrations, one after another, direct to the service:
// the latency a fleet run's every request pays. Each answer must be a 200 with 1,000 results.
import {
  API_KEY_HEADER,
  BULK_MAX_REGISTRATIONS,
  CLIENT_HEADER,
} from "@vics/shared";
import { ScenarioFailure } from "./answers.ts";
import { percentile } from "./percentile.ts";

/**
 * Untimed first requests: the JIT and the database's cache warm up on them. Ten, not three: a
 * freshly started service (PostgreSQL's in engines.ts) was still compiling its per-request
 * code after three, beside one warmed by earlier scenarios.
 */
const WARM_UP_REQUESTS = 10;

export function randomPick(
  registrations: readonly string[],
  count: number,
): string[] {
  return Array.from(
    { length: count },
    () => registrations[Math.floor(Math.random() * registrations.length)] ?? "",
  );
}

export async function bulkP50(options: {
  name: string;
  url: string;
  key: string;
  registrations: readonly string[];
  requests: number;
}): Promise<number> {
  const timings: number[] = [];
  for (let index = 0; index < WARM_UP_REQUESTS + options.requests; index++) {
    const body = JSON.stringify({
      registrations: randomPick(options.registrations, BULK_MAX_REGISTRATIONS),
    });
    const started = performance.now();
    const response = await fetch(options.url, {
      method: "POST",
      headers: {
        [API_KEY_HEADER]: options.key,
        [CLIENT_HEADER]: "bench",
        "Content-Type": "application/json",
      },
      body,
    });
    const text = await response.text();
    const elapsed = performance.now() - started;
    const results = response.ok
      ? (JSON.parse(text) as { results?: unknown[] }).results
      : undefined;
    if (results?.length !== BULK_MAX_REGISTRATIONS)
      throw new ScenarioFailure(
        options.name,
        `answer ${response.status} with ${results?.length ?? "no"} results: ${text.slice(0, 200)}`,
      );
    if (index >= WARM_UP_REQUESTS) timings.push(elapsed);
  }
  return percentile(timings, 50);
}
