// How a row of the user's list is named, wherever the app names one: its number written as the
// app writes its other numbers (en-GB, "2,000"), so "Row 1,980" and "Row 2,000" read alike on
// one page. Every "Row …" and "row …" of the fleet pages comes from here.
const NUMBER = new Intl.NumberFormat("en-GB");

/** "2,000": a row's number alone, in a table's Row column or a list of rows. */
export function rowNumber(line: number): string {
  return NUMBER.format(line);
}

/** "Row 2,000", to start a sentence or label a row. */
export function rowName(line: number): string {
  return `Row ${rowNumber(line)}`;
}

/** "row 2,000", within a sentence. */
export function rowInSentence(line: number): string {
  return `row ${rowNumber(line)}`;
}

/**
 * Two rows or more, within a sentence: "rows 4, 17 and 230", or, past `limit` rows named, "rows
 * 1, 2, … 10 and 490 more", so a vehicle in 500 rows stays one readable line.
 */
export function rowsWords(lines: readonly number[], limit = 10): string {
  const named = lines.slice(0, limit).map(rowNumber);
  const more = lines.length - named.length;
  if (more > 0)
    return `rows ${named.join(", ")} and ${NUMBER.format(more)} more`;
  const last = named.pop();
  return `rows ${named.join(", ")} and ${last}`;
}
