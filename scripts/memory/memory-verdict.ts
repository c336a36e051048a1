// What the memory experiment (scripts/memory-after-attack.ts) concludes from its figures: a
// leak is live heap that keeps growing from one round of attack to the next, measured after a
// full garbage collection; RSS that stays up while the heap comes back down is memory the
// allocator keeps for reuse, not a leak.

/** process.memoryUsage() in bytes, read after two full collections. */
export interface MemorySample {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

export interface ProcessVerdict {
  leak: boolean;
  /** Live heap after GC, MB: at the baseline, and after each round. */
  heapMb: number[];
  rssMb: number[];
  /** Heap growth per round after the first, MB (the first round also warms caches up). */
  heapGrowthPerRoundMb: number;
  reasons: string[];
}

const MB = 1024 * 1024;

/**
 * A leak: after the first round, the live heap grows every round, and by more than
 * `toleranceMb` per round on average. One round's growth is warm-up (code compiled, caches
 * filled); a flat or wobbling heap after it is no leak, however high RSS stays.
 */
export function memoryVerdict(
  baseline: MemorySample,
  rounds: MemorySample[],
  toleranceMb = 1,
): ProcessVerdict {
  const heapMb = [baseline, ...rounds].map((sample) => sample.heapUsed / MB);
  const rssMb = [baseline, ...rounds].map((sample) => sample.rss / MB);
  const afterFirst = heapMb.slice(2);
  const first = heapMb[1] ?? heapMb[0] ?? 0;
  const last = heapMb.at(-1) ?? first;
  const steps = afterFirst.length;
  const heapGrowthPerRoundMb = steps > 0 ? (last - first) / steps : 0;
  const everyRoundGrew =
    steps > 0 &&
    afterFirst.every((value, i) => value > (heapMb[i + 1] ?? Infinity));
  const leak = everyRoundGrew && heapGrowthPerRoundMb > toleranceMb;
  const reasons = leak
    ? [
        `live heap grew every round, by ${heapGrowthPerRoundMb.toFixed(1)} MB a round after the first`,
      ]
    : [
        `live heap after the first round moved ${heapGrowthPerRoundMb.toFixed(1)} MB a round (tolerance ${toleranceMb} MB)${everyRoundGrew ? "" : ", and not up every round"}`,
      ];
  return { leak, heapMb, rssMb, heapGrowthPerRoundMb, reasons };
}
