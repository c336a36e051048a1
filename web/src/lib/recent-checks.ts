// The last few checks made in this browser, kept in localStorage and never sent anywhere.
import { useSyncExternalStore } from "react";

export const RECENT_CHECKS_KEY = "vics:recent-checks";
export const RECENT_CHECKS_LIMIT = 10;

export type RecentCheckKind = "insurance" | "compliance";

export interface RecentCheck {
  registration: string;
  kind: RecentCheckKind;
  outcome: string;
  /** An ISO 8601 instant in UTC, e.g. "2026-01-05T09:00:00.000Z". */
  checkedAt: string;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/;

/**
 * The entry as a RecentCheck, or undefined. Checked by hand, not with zod: this list is the
 * browser's own (not the contract's), and zod is kept out of the first page load (it loads
 * with the first answer; see lazy-schemas.ts).
 */
function recentCheck(entry: unknown): RecentCheck | undefined {
  if (typeof entry !== "object" || entry === null) return undefined;
  const { registration, kind, outcome, checkedAt } = entry as Record<
    string,
    unknown
  >;
  if (typeof registration !== "string" || !/^[A-Z0-9]{1,7}$/.test(registration))
    return undefined;
  if (kind !== "insurance" && kind !== "compliance") return undefined;
  if (typeof outcome !== "string" || outcome.length < 1 || outcome.length > 80)
    return undefined;
  if (
    typeof checkedAt !== "string" ||
    !ISO_INSTANT.test(checkedAt) ||
    Number.isNaN(Date.parse(checkedAt))
  )
    return undefined;
  return { registration, kind, outcome, checkedAt };
}

export interface NewRecentCheck {
  registration: string;
  kind: RecentCheckKind;
  /** Words for the result, e.g. "Insured", "Not compliant", "No vehicle found". */
  outcome: string;
  checkedAt?: Date;
}

const listeners = new Set<() => void>();
// When storage is missing, full or refused, the list lives in memory for this visit.
let memoryOnly = false;
let memoryCopy: string | null = null;
let cached: { raw: string | null; checks: RecentCheck[] } = {
  raw: null,
  checks: [],
};

function readRaw(): string | null {
  if (memoryOnly) return memoryCopy;
  try {
    return window.localStorage.getItem(RECENT_CHECKS_KEY);
  } catch {
    memoryOnly = true; // some browsers throw when storage is blocked
    return memoryCopy;
  }
}

function writeRaw(raw: string | null): void {
  memoryCopy = raw;
  if (!memoryOnly) {
    try {
      if (raw === null) window.localStorage.removeItem(RECENT_CHECKS_KEY);
      else window.localStorage.setItem(RECENT_CHECKS_KEY, raw);
    } catch {
      memoryOnly = true;
    }
  }
  notify();
}

/** Parses whatever is stored, dropping anything unreadable rather than failing. */
function parse(raw: string | null): RecentCheck[] {
  if (raw === null) return [];
  let stored: unknown;
  try {
    stored = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(stored)) return [];
  return stored
    .map(recentCheck)
    .filter((check) => check !== undefined)
    .slice(0, RECENT_CHECKS_LIMIT);
}

export function getRecentChecks(): RecentCheck[] {
  const raw = readRaw();
  // useSyncExternalStore needs the same array back while nothing has changed.
  if (raw !== cached.raw) cached = { raw, checks: parse(raw) };
  return cached.checks;
}

/** Puts a check first, replacing an earlier one of the same vehicle and kind. */
export function addRecentCheck(check: NewRecentCheck): void {
  const entry: RecentCheck = {
    registration: check.registration,
    kind: check.kind,
    outcome: check.outcome,
    checkedAt: (check.checkedAt ?? new Date()).toISOString(),
  };
  if (!recentCheck(entry)) return;
  const others = getRecentChecks().filter(
    (old) => old.registration !== entry.registration || old.kind !== entry.kind,
  );
  writeRaw(JSON.stringify([entry, ...others].slice(0, RECENT_CHECKS_LIMIT)));
}

export function clearRecentChecks(): void {
  writeRaw(null);
}

function notify(): void {
  for (const listener of listeners) listener();
}

export function subscribeRecentChecks(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab changed the list.
  const onStorage = (event: StorageEvent) => {
    if (event.key === RECENT_CHECKS_KEY || event.key === null) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

export function useRecentChecks(): RecentCheck[] {
  return useSyncExternalStore(
    subscribeRecentChecks,
    getRecentChecks,
    getRecentChecks,
  );
}

/** Test helper: start again as a page reload would. */
export function resetRecentChecksMemory(): void {
  memoryOnly = false;
  memoryCopy = null;
  cached = { raw: null, checks: [] };
}
