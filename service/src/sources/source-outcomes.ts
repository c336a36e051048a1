// What the admin's Sources page says of a register (docs/sources.md): its last success, its
// last error in words, and what today's spent quota left unrefreshed. Written to the store
// sparingly: a success at most every OUTCOME_EVERY_MS (but at once after an error), an error of
// the same kind at most every ERROR_EVERY_MS, the quota's words at most once a minute.
import { utcDate } from "@vics/shared";
import type { Logger } from "@vics/server-kit/logger";
import type { FetchedFactStore } from "../store/fetched-facts.ts";
import type { Pacer } from "./pacer.ts";
import type { SourceError, SourceName } from "./source.ts";

const OUTCOME_EVERY_MS = 10_000;
const ERROR_EVERY_MS = 5_000;
const QUOTA_WORDS_EVERY_MS = 60_000;
/** Plates counted as left unrefreshed by a spent quota, at most (then "at least"). */
const REFUSED_COUNTED = 200_000;

/**
 * A plate in any of the forms people write it (any case, spaces or hyphens between its
 * characters) replaced by words: logs and the admin's page never show one (decision 011).
 */
export function withoutPlate(words: string, registration: string): string {
  const pattern = [...registration].join("[\\s-]*");
  return words.replace(new RegExp(pattern, "gi"), "a registration");
}

export class SourceOutcomes {
  private lastOkWritten = 0;
  private errorSinceOk = false;
  private lastError: { kind: string; at: number } | undefined;
  private readonly refusedToday = new Set<string>();
  private refusedDay = "";
  private quotaWordsWritten = 0;
  private readonly source: SourceName;
  private readonly deps: {
    store: FetchedFactStore;
    pacer: Pacer;
    now: () => Date;
    logger: Logger;
  };

  constructor(
    source: SourceName,
    deps: {
      store: FetchedFactStore;
      pacer: Pacer;
      now: () => Date;
      logger: Logger;
    },
  ) {
    this.source = source;
    this.deps = deps;
  }

  async success(): Promise<void> {
    const now = this.deps.now().getTime();
    if (!this.errorSinceOk && now - this.lastOkWritten < OUTCOME_EVERY_MS)
      return;
    this.lastOkWritten = now;
    this.errorSinceOk = false;
    await this.write({ ok: true });
  }

  /** A register-wide failure, its words already without the plate. */
  async failure(kind: SourceError["kind"], message: string): Promise<void> {
    this.deps.logger.warn("source: look-up failed", {
      source: this.source,
      kind,
      message,
    });
    const now = this.deps.now().getTime();
    const last = this.lastError;
    this.errorSinceOk = true;
    if (last && last.kind === kind && now - last.at < ERROR_EVERY_MS) return;
    this.lastError = { kind, at: now };
    await this.write({ ok: false, kind, message });
  }

  /**
   * Vehicles the spent quota left unrefreshed today (UTC), each counted once; the words say how
   * many, written at most once a minute so a busy day costs no write per check.
   */
  async refusedForQuota(registrations: Iterable<string>): Promise<void> {
    const day = utcDate(this.deps.now());
    if (day !== this.refusedDay) {
      this.refusedDay = day;
      this.refusedToday.clear();
      this.quotaWordsWritten = 0;
    }
    for (const registration of registrations)
      if (this.refusedToday.size < REFUSED_COUNTED)
        this.refusedToday.add(registration);
    const now = this.deps.now().getTime();
    if (now - this.quotaWordsWritten < QUOTA_WORDS_EVERY_MS) return;
    this.quotaWordsWritten = now;
    const left = this.refusedToday.size;
    const many = left >= REFUSED_COUNTED ? "at least " : "";
    const quota = await this.deps.pacer
      .usedToday()
      .then(({ quota }) => `of ${quota.toLocaleString("en-GB")} requests `)
      .catch(() => "");
    this.errorSinceOk = true;
    await this.write({
      ok: false,
      kind: "quota",
      message: `Today's quota ${quota}is spent: ${many}${left.toLocaleString("en-GB")} ${left === 1 ? "vehicle was" : "vehicles were"} not refreshed today. Each is asked again at its next check, or by the watched fleets' refresh, after midnight (UTC). If this happens often, raise the quota with the provider.`,
    });
  }

  private async write(
    outcome:
      { ok: true } | { ok: false; kind: SourceError["kind"]; message: string },
  ): Promise<void> {
    await this.deps.store
      .recordSourceOutcome({
        source: this.source,
        at: this.deps.now().toISOString(),
        ...outcome,
      })
      .catch((error: unknown) =>
        this.deps.logger.warn("source: outcome not recorded", {
          source: this.source,
          message: error instanceof Error ? error.message : String(error),
        }),
      );
  }
}
