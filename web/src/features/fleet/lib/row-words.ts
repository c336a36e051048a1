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
