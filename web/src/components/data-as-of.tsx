// How fresh the data behind an answer is: "Insurance data as of 24 November 2026 at 06:00".
// VICS's answer can only be as recent as its sources (decision 041).
import type { DataAsOf as DataAsOfAnswer } from "@vics/shared";
import { formatDateTime } from "../lib/dates.ts";

const SOURCE_NAMES: Record<keyof DataAsOfAnswer, string> = {
  insurance: "Insurance",
  mot: "MOT",
  tax: "Road tax",
  fines: "Fines",
};

interface DataAsOfProps {
  dataAsOf?: DataAsOfAnswer;
  /** The sources to name, in order; those the answer does not date are left out. */
  sources: readonly (keyof DataAsOfAnswer)[];
}

/** One line per source; nothing when the service did not say (an older service). */
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

/** "24 November 2026 at 06:00", or "not known", for the printed record. */
export function dataAsOfWords(at: string | undefined): string {
  return at === undefined ? "Not known" : formatDateTime(at);
}
