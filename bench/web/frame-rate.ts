// Frame rate from the timestamps requestAnimationFrame handed the page: how smooth a scroll
// looked, and how bad its worst moments were.
import { percentile } from "../percentile.ts";

export interface FrameRate {
  frames: number;
  /** Frames per second over the whole span. */
  fps: number;
  /** The longest gap between two frames, ms. */
  longestFrameMs: number;
  /** The 95th-percentile gap between frames, ms. */
  p95FrameMs: number;
  /** Gaps of more than 50 ms: moments a person sees the page stick. */
  longFrames: number;
}

/** `timestamps`: rAF times in ms, in order. Undefined for fewer than two frames. */
export function frameRate(
  timestamps: readonly number[],
): FrameRate | undefined {
  if (timestamps.length < 2) return undefined;
  const gaps: number[] = [];
  for (let i = 1; i < timestamps.length; i++) {
    gaps.push((timestamps[i] ?? 0) - (timestamps[i - 1] ?? 0));
  }
  const span = (timestamps.at(-1) ?? 0) - (timestamps[0] ?? 0);
  if (span <= 0) return undefined;
  return {
    frames: timestamps.length,
    fps: (gaps.length * 1000) / span,
    longestFrameMs: Math.max(...gaps),
    p95FrameMs: percentile(gaps, 95),
    longFrames: gaps.filter((gap) => gap > 50).length,
  };
}
