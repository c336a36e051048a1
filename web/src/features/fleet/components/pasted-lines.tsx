// "What we took from each line" of a paste: every line that was more than a registration on its
// own (a bullet, a label, a note, two plates, or none), beside what became rows. Read from an
// email, a list is never a surprise: the user sees each line's registrations, and which lines
// held none and wait below to be fixed or excluded.
import { useEffect, useId, useRef, useState } from "react";
import { formatRegistration, isValidRegistration } from "@vics/shared";
import type { PastedLine, SourceTable } from "../lib/fleet-types.ts";
import { rowInSentence, rowNumber } from "../lib/row-words.ts";
import { count } from "../../../lib/count.ts";

/** Shown at once; the rest on request, so a long paste does not push the list out of view. */
const FIRST = 10;

/** A valid plate as every screen writes it ("FR12 JRE"); a mistyped one as it was typed. */
const takenPlate = (text: string) =>
  isValidRegistration(text) ? formatRegistration(text) : text;

function takenWords(line: PastedLine): string {
  return line.taken.length > 0
    ? line.taken.map(takenPlate).join(", ")
    : `No registration found: fix or exclude ${rowInSentence(line.line)} below`;
}

export function PastedLines({ table }: { table: SourceTable }) {
  const id = useId();
  const [all, setAll] = useState(false);
  // The button goes once pressed: focus moves to the first line it brought, not to the page.
  const firstMore = useRef<HTMLTableCellElement>(null);
  useEffect(() => {
    if (all) firstMore.current?.focus();
  }, [all]);
  const lines = table.pasted ?? [];
  if (lines.length === 0) return null;
  const shown = all ? lines : lines.slice(0, FIRST);

  return (
    <section className="pasted-lines" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`} className="heading-s">
        What we took from each line
      </h3>
      <p>
        Rows are numbered by their line in what you pasted. Lines holding one
        registration and nothing else are not listed here.
      </p>
      <table className="pasted-lines__table" aria-labelledby={`${id}-heading`}>
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col">You pasted</th>
            <th scope="col">We took</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((line, index) => (
            <tr key={line.line}>
              <td
                ref={index === FIRST ? firstMore : undefined}
                tabIndex={index === FIRST ? -1 : undefined}
              >
                {rowNumber(line.line)}
              </td>
              <td className="pasted-lines__text">{line.text}</td>
              <td
                className={
                  line.taken.length > 0 ? undefined : "pasted-lines__none"
                }
              >
                {takenWords(line)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {!all && lines.length > FIRST && (
        <button
          type="button"
          className="link-button"
          onClick={() => setAll(true)}
        >
          Show all {count(lines.length)} lines
        </button>
      )}
    </section>
  );
}
