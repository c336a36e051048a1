// The builder every fetched-facts test uses: a found answer from a live source, as the
// refresher hands it to the store.
import type { FetchedFacts } from "../store/fetched-facts.ts";
import type { SourceName } from "../sources/source.ts";

type Answer = Omit<FetchedFacts["answer"], "found" | "answeredAt">;

/** The day after the contract fleet's seeding (2026-03-10), so a fetch is newer than the seed. */
export const FIRST_FETCH = "2026-03-11T08:00:00.000Z";

/** A found answer from `source`, fetched at `fetchedAt`. */
export const fetched = (
  answer: Answer,
  fetchedAt = FIRST_FETCH,
  source: SourceName = "dvla-ves",
): FetchedFacts => ({
  source,
  fetchedAt,
  answer: { found: true, answeredAt: new Date(fetchedAt), ...answer },
});
