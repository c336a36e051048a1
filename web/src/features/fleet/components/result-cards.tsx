// The results on a narrow screen: one card per row of the user's list, the outcome first, then
// the vehicle, then every other column as a label and its value. Virtualised like the table, so
// 100,000 rows scroll smoothly; a card's height is measured, as its words wrap.
import { useRef } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import type { ResultRow } from "../lib/results-view.ts";
import { resultColumns, type ResultColumn } from "./result-columns.tsx";
import { rowName } from "../lib/row-words.ts";

const CARD_HEIGHT = 200;

interface ResultCardsProps {
  entries: readonly ResultRow[];
  extraColumns: readonly string[];
  checkCompliance: boolean;
  captionId: string;
  /** The UK's date, for "ends in N days". */
  today: string;
}

/** Columns the card shows in its own places, ahead of the list of facts. */
const LEADING = new Set(["outcome", "line", "registration"]);

function ResultCard({
  entry,
  columns,
}: {
  entry: ResultRow;
  columns: ResultColumn[];
}) {
  const cell = (key: string) =>
    columns.find((column) => column.key === key)?.cell(entry);
  const facts = columns.filter(
    (column) => !LEADING.has(column.key) && !column.blank?.(entry),
  );
  return (
    <>
      <p className="result-card__outcome">{cell("outcome")}</p>
      <p className="result-card__vehicle">
        <span className="result-card__registration">
          {cell("registration")}
        </span>{" "}
        <span className="hint">{rowName(entry.row.line)}</span>
      </p>
      {facts.length > 0 && (
        <dl className="result-card__facts">
          {facts.map((column) => (
            <div key={column.key}>
              <dt>{column.label}</dt>
              <dd>{column.cell(entry)}</dd>
            </div>
          ))}
        </dl>
      )}
    </>
  );
}

export function ResultCards({
  entries,
  extraColumns,
  checkCompliance,
  captionId,
  today,
}: ResultCardsProps) {
  const columns = resultColumns(extraColumns, checkCompliance, today);
  const scroller = useRef<HTMLDivElement>(null);
  // See results-table.tsx: TanStack Virtual and the React Compiler.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => CARD_HEIGHT,
    overscan: 4,
  });
  const items = virtualizer.getVirtualItems();
  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  return (
    // Focusable, so the cards can be scrolled with the keyboard; named by the caption.
    <div
      ref={scroller}
      className="result-cards"
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
      role="region"
      aria-labelledby={captionId}
    >
      <ul
        className="result-cards__list"
        style={{ paddingTop: before, paddingBottom: after }}
      >
        {items.map((item) => {
          const entry = entries[item.index];
          return entry ? (
            <li
              key={entry.position}
              ref={virtualizer.measureElement}
              data-index={item.index}
              className="result-card"
              aria-setsize={entries.length}
              aria-posinset={item.index + 1}
            >
              <ResultCard entry={entry} columns={columns} />
            </li>
          ) : null;
        })}
      </ul>
    </div>
  );
}
