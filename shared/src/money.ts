// Money in words, from pence: one wording for the web app and the proxy's emails and webhooks.
// Beside long-date.ts, as dates are.

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

/**
 * "£160.00" for 16000 pence: always with pence and never a thousands separator ("£1234.50"),
 * as an alert, a vehicle's timeline and the fleet's CSV say a fine's total.
 */
export function formatPoundsAndPence(pence: number): string {
  return `£${(pence / 100).toFixed(2)}`;
}
