// The text and HTML parts of an alert email, from its fleets' lines: the same words in both, each
// alert with the vehicle's registration and a link to its page, grouped under its fleet. The HTML
// is plain and accessible (headings, lists, real link text) and loads nothing: no images, no
// styles from elsewhere. Everything that came from a user or an upstream is escaped.

interface BodyLine {
  /** As shown: "AB12 CDE". */
  registration: string;
  words: string;
  vehicleUrl: string;
}

export interface BodyFleet {
  name: string;
  url: string;
  lines: BodyLine[];
}

interface BodyInput {
  title: string;
  intro: string;
  fleets: BodyFleet[];
  unsubscribeUrl: string;
}

const STOP_WORDS =
  "You get these emails because a VICS fleet's alerts are sent to you.";

export function textBody(input: BodyInput): string {
  const parts = [input.title, "", input.intro];
  for (const fleet of input.fleets) {
    parts.push("", `${fleet.name}: ${fleet.url}`);
    for (const line of fleet.lines)
      parts.push(
        `- ${line.registration}: ${line.words}`,
        `  ${line.vehicleUrl}`,
      );
  }
  parts.push(
    "",
    "--",
    STOP_WORDS,
    `To stop them, open this link: ${input.unsubscribeUrl}`,
    "",
  );
  return parts.join("\n");
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Text made safe for HTML content and quoted attribute values. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

const link = (url: string, text: string) =>
  `<a href="${escapeHtml(url)}">${escapeHtml(text)}</a>`;

export function htmlBody(input: BodyInput): string {
  const fleets = input.fleets.map(
    (fleet) =>
      `<h2>${link(fleet.url, fleet.name)}</h2>\n<ul>\n${fleet.lines
        .map(
          (line) =>
            `<li>${link(line.vehicleUrl, line.registration)}: ${escapeHtml(line.words)}</li>`,
        )
        .join("\n")}\n</ul>`,
  );
  return [
    "<!doctype html>",
    '<html lang="en-GB">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(input.title)}</title>`,
    "</head>",
    "<body>",
    `<h1>${escapeHtml(input.title)}</h1>`,
    `<p>${escapeHtml(input.intro)}</p>`,
    ...fleets,
    "<hr>",
    `<p>${escapeHtml(STOP_WORDS)} To stop them, ${link(input.unsubscribeUrl, "unsubscribe from these emails")}.</p>`,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
