// Amounts of money in pounds, as staff say them: "£150", "£60.50".
const wholePounds = new Intl.NumberFormat("en-GB", {
  style: "currency",
  currency: "GBP",
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});

const poundsAndPence = new Intl.NumberFormat("en-GB", {
  style: "currency",
  currency: "GBP",
});

/** "£150" for 15000 pence; pence are shown only when there are some ("£150.50"). */
export function formatPounds(pence: number): string {
  return pence % 100 === 0
    ? wholePounds.format(pence / 100)
    : poundsAndPence.format(pence / 100);
}
