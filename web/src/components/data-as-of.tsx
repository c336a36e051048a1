// How fresh the data behind an answer is. From a service that names its facts' sources
// (issue 35), one line per component says where its fact came from and when, at a glance:
// "Road tax: DVLA, as of 10:02 today", "Insurance: VICS records, as of 28 November 2026 at
// 06:00". From an older service, as before: "Insurance data as of 24 November 2026 at 06:00".
// VICS's answer can only be as recent as its sources (decision 041).
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
  /** Which live register gave the tax and MOT facts; absent from an older service. */
  factSources?: FactSources;
  /** The sources to name, in order; those the answer does not date are left out. */
  sources: readonly Component[];
}

/** One line per source; nothing when the service did not say (an older service). */
export function DataAsOf({ dataAsOf, factSources, sources }: DataAsOfProps) {
  const today = ukToday(useNow());
  if (factSources) {
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
