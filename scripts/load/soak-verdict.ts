// Whether a soak passed: no errors but the designed 429s, and each process's memory (RSS) at the
// end within 20% of its level after the warm-up. Pure, so the rule itself is tested.

export const MEMORY_TOLERANCE = 0.2;

export interface SoakFigures {
  statuses: Record<string, number>;
  /** Socket errors and time-outs seen by the load generator. */
  errors: number;
  timeouts: number;
  /** [seconds since start, MB] per process. */
  rss: Record<string, Array<[number, number]>>;
  warmUpSeconds: number;
  durationSeconds: number;
}

export interface MemoryVerdict {
  afterWarmUpMb: number;
  atEndMb: number;
  change: number;
  ok: boolean;
}

export interface SoakVerdict {
  ok: boolean;
  /** Answers other than 200 and the designed 429. */
  unexpected: Record<string, number>;
  memory: Record<string, MemoryVerdict>;
  reasons: string[];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] ?? NaN)
    : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

/** The median of the samples taken in [from, to) seconds. */
function level(
  samples: Array<[number, number]>,
  from: number,
  to: number,
): number {
  return median(
    samples.filter(([at]) => at >= from && at < to).map(([, mb]) => mb),
  );
}

export function soakVerdict(figures: SoakFigures): SoakVerdict {
  const reasons: string[] = [];
  const unexpected = Object.fromEntries(
    Object.entries(figures.statuses).filter(
      ([status]) => status !== "200" && status !== "429",
    ),
  );
  if (Object.keys(unexpected).length > 0)
    reasons.push(
      `answers other than 200 and 429: ${JSON.stringify(unexpected)}`,
    );
  if (figures.errors > 0) reasons.push(`${figures.errors} connection errors`);
  if (figures.timeouts > 0) reasons.push(`${figures.timeouts} time-outs`);
  const memory: Record<string, MemoryVerdict> = {};
  const { warmUpSeconds: warm, durationSeconds: end } = figures;
  for (const [name, samples] of Object.entries(figures.rss)) {
    const afterWarmUpMb = level(samples, warm, warm + 5);
    const atEndMb = level(samples, end - 5, Infinity);
    const change = (atEndMb - afterWarmUpMb) / afterWarmUpMb;
    const ok = Number.isFinite(change) && Math.abs(change) <= MEMORY_TOLERANCE;
    memory[name] = { afterWarmUpMb, atEndMb, change, ok };
    if (!ok)
      reasons.push(
        `${name} memory went from ${afterWarmUpMb.toFixed(1)} MB after the warm-up to ${atEndMb.toFixed(1)} MB (${(change * 100).toFixed(1)}%)`,
      );
  }
  return { ok: reasons.length === 0, unexpected, memory, reasons };
}
