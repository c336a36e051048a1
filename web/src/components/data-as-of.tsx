// How fresh the data behind an answer is. A compliance answer says, one line per component,
// where its fact came from and when: "Road tax: DVLA, as of 10:02 today", "Insurance: VICS
// records, as of 28 November 2026 at 06:00". A component no register gave is VICS's records
// whether or not a register is on, as the fleet exports write it, so every answer of today's
// service reads the same way (issue 35). An insurance answer, which no register can give, says
// "Insurance data as of 24 November 2026 at 06:00". VICS's answer can only be as recent as its
// sources (decision 041).
import type { DataAsOf as DataAsOfAnswer, FactSources } from "@vics/shared";
import { formatDateTime, formatTimeOnDay, ukToday } from "../lib/dates.ts";
import {
  factOrigin,
  STALE_WORDS,
  type FactOrigin,
} from "../lib/fact-origin.ts";
import { useNow } from "../lib/use-now.ts";

const SOURCE_NAMES: Record<keyof DataAsOfAnswer, string> = {
  insurance: "Insurance",
  mot: "MOT",
  tax: "Road tax",
  fines: "Fines",
};

type Component = keyof DataAsOfAnswer;

interface DataAsOfProps {
  dataAsOf?: DataAsOfAnswer;
  /** The sources to name, in order; those the answer does not date are left out. */
  sources: readonly Component[];
}

/** One line per source; nothing when the service did not say (a service without dataAsOf). */
export function DataAsOf({ dataAsOf, sources }: DataAsOfProps) {
  const dated = sources.filter((source) => dataAsOf?.[source] !== undefined);
  if (dated.length === 0) return null;
  return (
    <>
      {dated.map((source) => {
        const at = dataAsOf![source]!;
        return (
          <p className="data-as-of" key={source}>
            {SOURCE_NAMES[source]} data as of{" "}
            <time dateTime={at}>{formatDateTime(at)}</time>
          </p>
        );
      })}
    </>
  );
}

interface FactOriginsProps extends DataAsOfProps {
  /** Which live register gave the tax and MOT facts; absent when none did. */
  factSources?: FactSources;
}

/**
 * One line per component of a compliance answer: its register where factSources names one,
 * else VICS's records as of dataAsOf. Nothing for a component the answer dates neither way, so
 * an answer without dataAsOf (a service before it) shows only what a register gave, if anything.
 */
export function FactOrigins({
  dataAsOf,
  factSources,
  sources,
}: FactOriginsProps) {
  const today = ukToday(useNow());
  const origins = sources.flatMap((component) => {
    const origin = factOrigin(component, factSources, dataAsOf?.[component]);
    return origin ? [{ component, origin }] : [];
  });
  return (
    <>
      {origins.map(({ component, origin }) => (
        <FactOriginLine
          key={component}
          name={SOURCE_NAMES[component]}
          origin={origin}
          today={today}
        />
      ))}
    </>
  );
}

/** "Road tax: DVLA, as of 10:02 today", and, when stale, why it is the stored fact. */
function FactOriginLine({
  name,
  origin,
  today,
}: {
  name: string;
  origin: FactOrigin;
  today: string;
}) {
  return (
    <p className="data-as-of">
      {name}: {origin.label}, as of{" "}
      <time dateTime={origin.asOf}>{formatTimeOnDay(origin.asOf, today)}</time>
      {origin.stale && (
        <strong className="data-as-of__stale"> ({STALE_WORDS})</strong>
      )}
    </p>
  );
}

/** "24 November 2026 at 06:00", or "not known", for the printed record. */
export function dataAsOfWords(at: string | undefined): string {
  return at === undefined ? "Not known" : formatDateTime(at);
}
