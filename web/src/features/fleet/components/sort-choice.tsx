// On a narrow screen the cards have no column headers to sort by: this choice does their job,
// with the same sort orders, kept in the address the same way.
import { useId } from "react";
import {
  DEFAULT_SORT,
  sameColumn,
  type SortColumn,
  type SortOrder,
} from "../lib/results-sort.ts";

interface SortChoiceProps {
  sort: SortOrder;
  onSort: (sort: SortOrder) => void;
  extraColumns: readonly string[];
  checkCompliance: boolean;
}

interface Option {
  label: string;
  sort: SortOrder;
}

const up = (column: SortColumn): SortOrder => ({
  column,
  direction: "ascending",
});
const down = (column: SortColumn): SortOrder => ({
  column,
  direction: "descending",
});

function sortOptions(
  extraColumns: readonly string[],
  checkCompliance: boolean,
): Option[] {
  return [
    { label: "Needing action first", sort: DEFAULT_SORT },
    { label: "Order of your list", sort: up("line") },
    { label: "Registration (A to Z)", sort: up("registration") },
    { label: "Registration (Z to A)", sort: down("registration") },
    { label: "Insurer (A to Z)", sort: up("insurer") },
    { label: "Cover ends (soonest first)", sort: up("validTo") },
    ...(checkCompliance
      ? [
          { label: "MOT due (soonest first)", sort: up("motDue") },
          { label: "Tax due (soonest first)", sort: up("taxDue") },
        ]
      : []),
    ...extraColumns.map((label, extra) => ({
      label: `${label} (A to Z)`,
      sort: up({ extra }),
    })),
  ];
}

const same = (a: SortOrder, b: SortOrder) =>
  sameColumn(a.column, b.column) && a.direction === b.direction;

export function SortChoice({
  sort,
  onSort,
  extraColumns,
  checkCompliance,
}: SortChoiceProps) {
  const id = useId();
  const options = sortOptions(extraColumns, checkCompliance);
  // A sort the list does not offer (a column's reverse, from the wide table) is kept as it is.
  const chosen = options.findIndex((option) => same(option.sort, sort));
  return (
    <div className="form-group">
      <label className="label" htmlFor={`${id}-sort`}>
        Sort by
      </label>
      <select
        id={`${id}-sort`}
        className="select"
        value={chosen}
        onChange={(event) => {
          const option = options[Number(event.target.value)];
          if (option) onSort(option.sort);
        }}
      >
        {chosen < 0 && <option value={-1}>As chosen in the table</option>}
        {options.map((option, index) => (
          <option key={option.label} value={index}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
