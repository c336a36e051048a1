/**
 * Which of the encodings a file was built in (web/vite.config.ts: Brotli and gzip beside each
 * text file) a request asked for, by its Accept-Encoding (RFC 9110, section 12.5.3). Only a
 * coding the client names, itself or by `*`, with a q above 0 is ever chosen: a client that
 * sent no Accept-Encoding gets the file as it is, never a body it may not be able to read.
 */

/** The codings whose files the build writes, in the order the server prefers them. */
export const BUILT_ENCODINGS = [
  { coding: "br", suffix: ".br" },
  { coding: "gzip", suffix: ".gz" },
] as const;

export type BuiltEncoding = (typeof BUILT_ENCODINGS)[number];

/** Each coding the header names, in lower case, with its weight (1 when it gives none). */
function weights(header: string): Map<string, number> {
  const named = new Map<string, number>();
  for (const entry of header.split(",")) {
    const [name = "", ...parameters] = entry.split(";");
    let coding = name.trim().toLowerCase();
    if (coding === "") continue;
    // RFC 9110: "x-gzip" is an alias of "gzip".
    if (coding === "x-gzip") coding = "gzip";
    let weight = 1;
    for (const parameter of parameters) {
      const [key = "", value = ""] = parameter.split("=");
      if (key.trim().toLowerCase() !== "q") continue;
      const q = value.trim();
      // A weight that is not 0 to 1 with at most three decimals says nothing: the entry is
      // dropped rather than read as "yes".
      weight = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(q)
        ? Number(q)
        : Number.NaN;
    }
    if (Number.isNaN(weight)) continue;
    // The same coding named twice: the stricter weight holds.
    named.set(coding, Math.min(weight, named.get(coding) ?? 1));
  }
  return named;
}

/**
 * The encoding to send among `available` (those built for this file, in the server's order of
 * preference), or undefined for the file as it is. The highest weight wins; equal weights go
 * to the server's order (Brotli before gzip). Identity, when the client weighs it above every
 * offered coding, wins over them.
 */
export function chooseEncoding(
  header: string | undefined,
  available: readonly BuiltEncoding[],
): BuiltEncoding | undefined {
  if (header === undefined || available.length === 0) return undefined;
  const named = weights(header);
  const any = named.get("*");
  let best: BuiltEncoding | undefined;
  let bestWeight = 0;
  for (const encoding of available) {
    const weight = named.get(encoding.coding) ?? any ?? 0;
    if (weight > bestWeight) {
      best = encoding;
      bestWeight = weight;
    }
  }
  const identity = named.get("identity");
  if (identity !== undefined && identity > bestWeight) return undefined;
  return best;
}
