// Figures taken in rounds: a machine shared by the load generator and the servers drifts, so
// the bench measures what it compares in interleaved rounds and reports the median round with
// the fastest and the slowest, which makes the noise visible.
import { percentile } from "./percentile.ts";

/** A figure's median round, with its fastest and slowest round. */
export interface RoundFigure {
  median: number;
  fastest: number;
  slowest: number;
}

export function overRounds(rounds: readonly number[]): RoundFigure {
  if (rounds.length === 0) throw new Error("no rounds to summarise");
  const sorted = [...rounds].sort((a, b) => a - b);
  return {
    median: percentile(sorted, 50),
    fastest: sorted[0]!,
    slowest: sorted.at(-1)!,
  };
}

/** Round `round`'s order: as given on even rounds, reversed on odd ones. */
export function roundOrder<T>(items: readonly T[], round: number): T[] {
  return round % 2 === 0 ? [...items] : items.toReversed();
}
