// Rows whose registration is not valid, with their line numbers and reasons: fix one in place
// (or take an O/0, I/1 suggestion), or exclude it. Nothing is dropped: an invalid row that is
// left as it is appears in the results as "Invalid registration"; an excluded one as "Excluded".
// A fixed row leaves the list: focus moves to the next row to fix (or to the heading, or to a
// note that none are left) and a status message says what happened, so no one loses their place.
import { useRef, useState } from "react";
import { formatRegistration } from "@vics/shared";
import type { FleetRow } from "../lib/fleet-types.ts";
import { excludeRow, fixRow } from "../lib/parse/prepare-rows.ts";
import { InvalidRowFix } from "./invalid-row-fix.tsx";
import { usePlaceAfterChange } from "./use-place-after-change.ts";
import { invalidRowsHeading, rowsLeftWords } from "./review-words.ts";
import { rowName } from "../lib/row-words.ts";
import { count } from "../../../lib/count.ts";

/** Shown at once; more on request, so a list with thousands of bad rows stays usable. */
const PAGE = 50;

interface InvalidRowsProps {
  rows: FleetRow[];
  onRows: (rows: FleetRow[]) => void;
}

const toFix = (row: FleetRow | undefined) =>
  row !== undefined && row.invalid !== undefined && !row.excluded;

export function InvalidRows({ rows, onRows }: InvalidRowsProps) {
  const [shown, setShown] = useState(PAGE);
  const [status, setStatus] = useState("");
  const [fixedHere, setFixedHere] = useState(false);
  const fields = useRef(new Map<number, HTMLInputElement>());
  const heading = useRef<HTMLHeadingElement>(null);
  const allFixed = useRef<HTMLParagraphElement>(null);
  const place = usePlaceAfterChange(rows);
  // Excluded rows stay listed (ticked), so an exclusion can be undone.
  const listed = rows
    .map((row, index) => ({ row, index }))
    .filter(({ row }) => row.invalid !== undefined);
  const open = listed.filter(({ row }) => !row.excluded);
  const excluded = listed.length - open.length;

  function update(index: number, row: FleetRow) {
    const next = rows.slice();
    next[index] = row;
    onRows(next);
  }

  function fix(index: number, row: FleetRow, text: string) {
    const fixed = fixRow(row, text);
    update(index, fixed);
    if (fixed.invalid) {
      setStatus(
        `${rowName(row.line)} is still not valid: ${fixed.invalid.reason}`,
      );
      return;
    }
    setFixedHere(true);
    const left = open.filter((item) => item.index !== index);
    const after = left.find((item) => item.index > index) ?? left.at(-1);
    const changed = `${rowName(row.line)} changed to ${formatRegistration(fixed.registration ?? "")}.`;
    setStatus(`${changed} ${rowsLeftWords(left.length, listed.length === 1)}`);
    place.focusAfter(() =>
      after
        ? // The next row may be beyond those shown: then the heading, never the page.
          (fields.current.get(after.index) ?? heading.current)
        : listed.length > 1
          ? heading.current
          : allFixed.current,
    );
  }

  function exclude(index: number, row: FleetRow, exclude: boolean) {
    update(index, excludeRow(row, exclude));
    setStatus(
      exclude
        ? `${rowName(row.line)} excluded.`
        : `${rowName(row.line)} included again.`,
    );
  }

  function excludeAll() {
    onRows(rows.map((row) => (toFix(row) ? excludeRow(row, true) : row)));
    setStatus(
      `${count(open.length)} rows excluded. They are not checked, and appear in the results as excluded.`,
    );
    place.focusAfter(() => heading.current);
  }

  return (
    <>
      <p
        className="visually-hidden"
        role="status"
        data-testid="invalid-rows-status"
      >
        {status}
      </p>
      {listed.length === 0 && fixedHere && (
        <p ref={allFixed} tabIndex={-1} className="inset-note">
          All rows now have a valid registration.
        </p>
      )}
      {listed.length > 0 && (
        <section
          className="invalid-rows"
          aria-labelledby="invalid-rows-heading"
        >
          <h3
            ref={heading}
            id="invalid-rows-heading"
            tabIndex={-1}
            className="heading-s"
          >
            {invalidRowsHeading(open.length, excluded)}
          </h3>
          <p>
            Correct a registration and select Update, or exclude the row. Rows
            you leave as they are, or exclude, are not checked but still appear
            in the results and the download.
          </p>
          {open.length > 1 && (
            <button
              type="button"
              className="button button--secondary"
              onClick={excludeAll}
            >
              Exclude all {count(open.length)} rows with an invalid registration
            </button>
          )}
          <ul className="invalid-rows__list">
            {listed.slice(0, shown).map(({ row, index }) => (
              <li key={index} className="invalid-rows__item">
                <InvalidRowFix
                  row={row}
                  fieldRef={(field) => {
                    if (field) fields.current.set(index, field);
                    else fields.current.delete(index);
                  }}
                  onFix={(text) => fix(index, row, text)}
                  onExclude={(value) => exclude(index, row, value)}
                  suggestionLabel={formatRegistration}
                />
              </li>
            ))}
          </ul>
          {listed.length > shown && (
            <button
              type="button"
              className="link-button"
              onClick={() => setShown((value) => value + PAGE * 4)}
            >
              Show more rows ({count(listed.length - shown)} not shown)
            </button>
          )}
        </section>
      )}
    </>
  );
}
