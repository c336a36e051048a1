// A calendar date in words, "3 March 2027", for whatever the web app and the proxy's emails
// and webhooks show people. The same wording in both, so an email says what the page says.

/** "3 March 2027", as seen in `timeZone` (the web app shows clock times in UK time). */
export function longDateFormat(timeZone: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone,
  });
}

// A contract date ("2027-03-03") is a calendar day: read in UTC, no time zone can move it.
const utcLongDate = longDateFormat("UTC");

/** "3 March 2027" for "2027-03-03" (or a timestamp whose first ten characters are a date). */
export function formatLongDate(isoDate: string): string {
  return utcLongDate.format(new Date(`${isoDate.slice(0, 10)}T00:00:00Z`));
}
