// A live source: a public register VICS asks about one vehicle at a time (docs/sources.md).
// Each adapter turns its provider's answer into the facts VICS keeps, or a SourceError whose
// words an operator can act on. Adapters know nothing of storage, pacing or freshness: the
// refresher (refresher.ts) does those, the same for every source.
import type { LiveSourceName } from "@vics/shared";
import type { REGISTER_ERROR_KINDS } from "@vics/shared/registers-admin";
import { parseRetryAfter, type IsoDate } from "@vics/shared";
import type { MotTest, TaxRecord } from "../domain/compliance.ts";

/** The registers, as the contract names them. */
export type SourceName = LiveSourceName;

/** The kinds of fact a source can give; a check's components are made from them. */
export type FactKind = "tax" | "mot" | "vehicle";

/** What a register says the vehicle is; fields it does not give are absent. */
export interface VehicleDetails {
  make?: string;
  model?: string;
  color?: string;
  year?: number;
  /** The first day of registration, or the first of its month when only the month is given. */
  firstRegistered?: IsoDate;
}

/**
 * The MOT as a register states it: the passed tests' certificates (DVSA's history), or only the
 * current certificate's expiry (DVLA's record, which gives no test date).
 */
export type MotFact =
  | { kind: "history"; tests: MotTest[]; firstDue?: IsoDate }
  | { kind: "expiry"; expiresOn: IsoDate | null };

/** One vehicle's answer from one source, with the instant the source answered. */
export type SourceAnswer =
  | {
      found: true;
      registration: string;
      answeredAt: Date;
      vehicle?: VehicleDetails;
      tax?: TaxRecord;
      mot?: MotFact;
    }
  | { found: false; registration: string; answeredAt: Date };

/** Why a source could not answer, as the admins' sources page names it (REGISTER_ERROR_KINDS). */
export type SourceErrorKind = (typeof REGISTER_ERROR_KINDS)[number];

/** A source's failure; `retryAfterMs` is the provider's Retry-After where it sent one. */
export class SourceError extends Error {
  readonly source: SourceName;
  readonly kind: SourceErrorKind;
  readonly retryAfterMs: number | undefined;
  readonly status: number | undefined;
  constructor(
    source: SourceName,
    kind: SourceErrorKind,
    message: string,
    options: { retryAfterMs?: number; status?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "SourceError";
    this.source = source;
    this.kind = kind;
    this.retryAfterMs = options.retryAfterMs;
    this.status = options.status;
  }
}

/** A provider's Retry-After (seconds or a date) in milliseconds; undefined when absent or unreadable. */
export function retryAfterMs(
  headers: Pick<Headers, "get">,
  now: Date,
): number | undefined {
  const seconds = parseRetryAfter(headers, now);
  return seconds === undefined ? undefined : seconds * 1000;
}

/** A register adapter. `lookUp` resolves with the answer or rejects with a SourceError. */
export interface LiveSource {
  readonly name: SourceName;
  /** The base URL it calls, for the admin's page. */
  readonly baseUrl: string;
  /** `registration` as parseRegistration gives it: letters and digits, upper case. */
  lookUp(registration: string, signal?: AbortSignal): Promise<SourceAnswer>;
}
