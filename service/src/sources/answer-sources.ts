// What a check's answer says of its live facts (docs/api.md, "Where each fact came from"): for
// tax and MOT, the register that last gave the vehicle's fact and when, and whether that is
// older than the register's freshness window.
import type { FactSource, FactSources } from "@vics/shared";
import type { Freshness } from "../store/fetched-facts.ts";
import type { PacedSource } from "./paced-source.ts";
import type { FactKind, SourceName } from "./source.ts";

export function answerSources(
  known: Partial<Record<FactKind, Freshness>> | undefined,
  sources: readonly PacedSource[],
  now: Date,
): FactSources | undefined {
  if (known === undefined) return undefined;
  const windowOf = (name: SourceName) =>
    sources.find((paced) => paced.source.name === name)?.freshForMs;
  const one = (fact: Freshness | undefined): FactSource | undefined => {
    if (fact === undefined) return undefined;
    const window = windowOf(fact.source);
    const stale =
      window !== undefined &&
      now.getTime() - Date.parse(fact.fetchedAt) >= window;
    return {
      source: fact.source,
      asOf: fact.fetchedAt,
      ...(stale && { stale }),
    };
  };
  const tax = one(known.tax);
  const mot = one(known.mot);
  if (!tax && !mot) return undefined;
  return { ...(tax && { tax }), ...(mot && { mot }) };
}
