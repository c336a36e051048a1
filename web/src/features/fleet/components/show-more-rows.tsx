// Under a long table: how many of its vehicles are shown and "Show 200 more", so a saved fleet of
// 100,000 draws 200 rows at a time rather than freezing the browser. A table of 200 or fewer has
// neither, and looks as it always did.
import { count } from "../../../lib/count.ts";

/** The rows a table draws at first, and adds each time "Show more" is pressed. */
export const PAGE_ROWS = 200;

interface ShowMoreRowsProps {
  /** How many rows the table draws now. */
  shown: number;
  /** How many vehicles it would list in all. */
  total: number;
  onMore: () => void;
}

/** "Showing 200 of 12,345 vehicles". */
export function shownWords(shown: number, total: number): string {
  return `Showing ${count(Math.min(shown, total))} of ${count(total)} vehicles`;
}

export function ShowMoreRows({ shown, total, onMore }: ShowMoreRowsProps) {
  if (total <= PAGE_ROWS) return null;
  const left = total - shown;
  return (
    <div>
      <p>{shownWords(shown, total)}</p>
      {left > 0 && (
        <button
          type="button"
          className="button button--secondary"
          onClick={onMore}
        >
          {left > PAGE_ROWS
            ? `Show ${count(PAGE_ROWS)} more`
            : `Show the remaining ${count(left)}`}
        </button>
      )}
    </div>
  );
}
