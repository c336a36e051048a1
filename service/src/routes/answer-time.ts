// Which day an answer judges, and which knowledge it answers from
// (docs/decisions/041-point-in-time-answers.md).
import {
  type AsOf,
  type DataAsOf,
  type PointInTime,
  ukDate,
  ukMidnight,
  addDays,
  type IsoDate,
} from "@vics/shared";
import { ProblemError } from "@vics/server-kit/problem-error";
import type { DataInfo, Source } from "../store/data-info.ts";

export interface AnswerTime {
  /** The UK date the checks are judged on. */
  date: IsoDate;
  /** The instant whose knowledge answers; undefined means the latest. */
  knownAt?: string;
  /**
   * The instant road tax and fines (states, not periods) are read at: the end of `date`, when
   * that is before the knowledge asked for. Undefined: the same version as the periods.
   */
  statesKnownAt?: string;
  /** On the answer, only when the client asked. */
  asOf?: AsOf;
}

const longDate = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});
const inWords = (date: IsoDate) =>
  longDate.format(new Date(`${date}T00:00:00.000Z`));

const outOfRange = (detail: string) =>
  new ProblemError(400, "DATE_OUT_OF_RANGE", detail);

/** The last millisecond of a UK calendar date. */
export function endOfUkDay(date: IsoDate): number {
  return (ukMidnight(addDays(date, 1)) ?? 0) - 1;
}

/**
 * The answer's day and knowledge from what the client asked, or a 400 in words when it lies
 * outside the kept history or in the future.
 */
export function answerTime(
  asked: PointInTime,
  now: Date,
  info: DataInfo,
): AnswerTime {
  const today = ukDate(now);
  let knownAt: number | undefined;
  if (asked.asKnownAt !== undefined) {
    knownAt = Date.parse(asked.asKnownAt);
    if (knownAt > now.getTime())
      throw outOfRange(
        `asKnownAt ${asked.asKnownAt} is in the future: it is now ${now.toISOString()}.`,
      );
    if (info.since === undefined)
      throw outOfRange(
        `VICS holds no data yet, so there is nothing it knew at ${asked.asKnownAt}.`,
      );
    if (knownAt < Date.parse(info.since))
      throw outOfRange(
        `asKnownAt ${asked.asKnownAt} is before VICS held any data: its records start at ${info.since}.`,
      );
  }
  const date =
    asked.date ?? (knownAt === undefined ? today : ukDate(new Date(knownAt)));
  if (date > today)
    throw outOfRange(
      `date ${date} is in the future: today in the UK is ${today}. Ask about today or a day before it.`,
    );
  if (info.historyFrom !== undefined && date < info.historyFrom)
    throw outOfRange(
      `date ${date} is before VICS's records begin, on ${inWords(info.historyFrom)} (${info.historyFrom}).`,
    );
  const asOfInstant = knownAt ?? now.getTime();
  const asking = asked.date !== undefined || asked.asKnownAt !== undefined;
  // A question about now is answered at an instant inside today, whose end is still to come:
  // only a question about a date or an instant can end its day before its knowledge. (The
  // day's end takes up to four Intl formats, a tenth of a check's CPU when every check asked.)
  const dayEnd = asking ? endOfUkDay(date) : Infinity;
  return {
    date,
    knownAt:
      knownAt === undefined ? undefined : new Date(knownAt).toISOString(),
    statesKnownAt:
      dayEnd < asOfInstant ? new Date(dayEnd).toISOString() : undefined,
    asOf: asking
      ? { date, knownAt: new Date(asOfInstant).toISOString() }
      : undefined,
  };
}

/** The freshness of the sources an answer was made from (those the database knows). */
export function dataAsOf(info: DataInfo, sources: readonly Source[]): DataAsOf {
  const fresh: DataAsOf = {};
  for (const source of sources) {
    const at = info.asOf[source];
    if (at !== undefined) fresh[source] = at;
  }
  return fresh;
}
