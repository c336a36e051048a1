/**
 * The hostile inputs of the property tests, in one place so that the shared parser, the
 * service and the proxy are all tried with the same ones: registrations, raw path segments,
 * bulk bodies with their content types, and header values.
 */
import fc from "fast-check";
import { BULK_MAX_BODY_BYTES, BULK_MAX_REGISTRATIONS } from "../bulk.ts";
// The reference plates are in every seeded database, so some cases meet a 200.
import { REFERENCE_REGISTRATIONS } from "../named-registrations.ts";

const plateFormats = [
  /^[A-Z]{2}[0-9]{2}[A-Z]{3}$/,
  /^[A-Z][0-9]{1,3}[A-Z]{3}$/,
  /^[A-Z]{3}[0-9]{1,3}[A-Z]$/,
  /^[A-Z]{1,3}[0-9]{1,4}$/,
  /^[0-9]{1,4}[A-Z]{1,3}$/,
].map((format) => fc.stringMatching(format));

/** A plate in one of the DVLA formats, perhaps held in the database, perhaps not. */
export const validPlate = (): fc.Arbitrary<string> =>
  fc.oneof(fc.constantFrom(...REFERENCE_REGISTRATIONS), ...plateFormats);

/** As people type one: any letter case, spaces and hyphens anywhere, space around it. */
export const typedPlate = (): fc.Arbitrary<string> =>
  fc
    .tuple(
      validPlate(),
      fc.array(fc.boolean(), { maxLength: 7 }),
      fc.array(fc.constantFrom("", "", " ", "-", "  ", "\t", "\u00a0"), {
        minLength: 8,
        maxLength: 8,
      }),
    )
    .map(([plate, lower, gaps]) =>
      [...plate]
        .map((char, index) =>
          lower[index] ? char.toLowerCase() : char.toUpperCase(),
        )
        .map((char, index) => (gaps[index] ?? "") + char)
        .join("")
        .concat(gaps[7] ?? ""),
    );

/** Pieces that trip parsers and paths: traversal, encodings, look-alike letters, controls. */
const TRICKY_PIECES = [
  "/",
  "\\",
  ".",
  "..",
  "%",
  "%2F",
  "%2f",
  "%2E%2E",
  "%00",
  "\u0000",
  "%C0%AF",
  "%E0%80%AE",
  "%ZZ",
  "?",
  "#",
  ";",
  "&",
  "'",
  '"',
  "<script>",
  "' OR '1'='1",
  "\r\n",
  "\u202e",
  "\u200b",
  "\ufeff",
  "\u00a0",
  "\ud800",
  "\udfff",
  "😀",
  "ß",
  "ı",
  "ﬀ",
  "ǆ",
  "Ａ",
  "А",
  "Ⅻ",
  "١٢",
  "AB",
  "12",
  "CDE",
  "O",
  "0",
  "I",
  "1",
];

const controlChar = fc
  .integer({ min: 0, max: 0x9f })
  .filter((code) => code < 0x20 || code >= 0x7f)
  .map((code) => String.fromCharCode(code));

/** About 10 KB of one short piece, repeated: cheap to make, as long as a hostile string. */
const tenKilobytes = (piece: fc.Arbitrary<string>) =>
  fc
    .tuple(piece, fc.integer({ min: 10_240, max: 12_288 }))
    .map(([text, length]) =>
      (text || "A").repeat(Math.ceil(length / Math.max(1, text.length))),
    );

/** Anything a person, a script or an attacker might send where a registration goes. */
export const registrationText = (): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: typedPlate() },
    {
      // A plate with one piece slipped in: near misses of every kind.
      weight: 3,
      arbitrary: fc
        .tuple(validPlate(), fc.nat(8), fc.constantFrom(...TRICKY_PIECES))
        .map(
          ([plate, at, piece]) => plate.slice(0, at) + piece + plate.slice(at),
        ),
    },
    {
      weight: 2,
      arbitrary: fc
        .array(fc.constantFrom(...TRICKY_PIECES), { maxLength: 8 })
        .map((pieces) => pieces.join("")),
    },
    { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
    { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 12 }) },
    { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 12 }) },
    { weight: 1, arbitrary: fc.string({ unit: controlChar, maxLength: 8 }) },
    {
      weight: 1,
      arbitrary: tenKilobytes(
        fc.oneof(
          fc.constantFrom(...TRICKY_PIECES),
          fc.string({ unit: "binary", maxLength: 4 }),
        ),
      ),
    },
  );

/** Percent-encodes every UTF-8 byte of `text`, lone surrogates included (as a server would get them). */
function percentEncodeBytes(text: string): string {
  const bytes: number[] = [];
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x80) bytes.push(code);
    else if (code < 0x800) bytes.push(0xc0 | (code >> 6), 0x80 | (code & 63));
    else if (code < 0x10000)
      bytes.push(
        0xe0 | (code >> 12),
        0x80 | ((code >> 6) & 63),
        0x80 | (code & 63),
      );
    else
      bytes.push(
        0xf0 | (code >> 18),
        0x80 | ((code >> 12) & 63),
        0x80 | ((code >> 6) & 63),
        0x80 | (code & 63),
      );
  }
  return bytes
    .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`)
    .join("");
}

/** Already-encoded pieces, put in the path as they are. */
const RAW_PATH_PIECES = [
  "%2F",
  "%2f",
  "%5C",
  "%2E",
  "%2E%2E",
  ".%2e",
  "..",
  ".",
  "%00",
  "%0A",
  "%0D%0A",
  "%C0%AF", // an overlong "/"
  "%C0%AE", // an overlong "."
  "%E0%80%AF",
  "%F0%80%80%AF",
  "%ED%A0%80", // a UTF-16 surrogate, as UTF-8
  "%FF",
  "%FE%FF",
  "%",
  "%2",
  "%G0",
  "%%",
  "%25",
  "%252F",
  "%u002F",
  "+",
  ";",
  ";jsessionid=1",
  "@",
  ":",
  "=",
  "~",
  "!",
  "$",
  "&",
  "(",
  ")",
  "*",
  ",",
  "'",
  "AB12",
  "CDE",
  "ab12cde",
];

/**
 * One path segment as it goes on the wire: a registration encoded with encodeURIComponent
 * (or byte by byte, where it holds a lone surrogate), raw pre-encoded pieces, or 10 KB of
 * either. It may hold "/" or "?" and so not be one segment at all.
 */
export const pathSegment = (): fc.Arbitrary<string> =>
  fc.oneof(
    {
      weight: 5,
      arbitrary: registrationText().map((text) =>
        text.isWellFormed()
          ? encodeURIComponent(text)
          : percentEncodeBytes(text),
      ),
    },
    {
      weight: 3,
      arbitrary: fc
        .array(fc.constantFrom(...RAW_PATH_PIECES), {
          minLength: 1,
          maxLength: 8,
        })
        .map((pieces) => pieces.join("")),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(validPlate(), fc.nat(7), fc.constantFrom(...RAW_PATH_PIECES))
        .map(
          ([plate, at, piece]) => plate.slice(0, at) + piece + plate.slice(at),
        ),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...RAW_PATH_PIECES),
          fc.integer({ min: 10_240, max: 12_288 }),
        )
        .map(([piece, length]) =>
          piece.repeat(Math.ceil(length / piece.length)),
        ),
    },
  );

/** A value a client could put in a header: Latin-1 without controls (what fetch accepts). */
export const headerValue = (maxLength = 80): fc.Arbitrary<string> =>
  fc.string({
    unit: fc
      .integer({ min: 0x20, max: 0xff })
      .filter((code) => code !== 0x7f)
      .map((code) => String.fromCharCode(code)),
    maxLength,
  });

export const JSON_CONTENT_TYPE = "application/json";

/** What a client may say its body is. `null`: no Content-Type header at all. */
export const contentType = (): fc.Arbitrary<string | null> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constant(JSON_CONTENT_TYPE) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        "application/json; charset=utf-8",
        "Application/JSON",
        "application/json;charset=UTF-16",
        "application/json; foo=bar; charset=latin1",
        " application/json ",
      ),
    },
    {
      weight: 3,
      arbitrary: fc.constantFrom<string | null>(
        null,
        "",
        "text/plain",
        "text/json",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=vics",
        "application/problem+json",
        "application/jsonp",
        "application/json5",
        "application/json-patch+json",
        "application/xml",
        "application/octet-stream",
        "application/json, text/plain",
        "json",
        ";application/json",
        "*/*",
      ),
    },
    { weight: 1, arbitrary: headerValue(40) },
  );

const utf8 = (text: string) => new TextEncoder().encode(text);

/** A bulk request body as sent: its content type, its bytes, and what kind of body it is. */
export interface BulkBody {
  kind: string;
  contentType: string | null;
  body: Uint8Array<ArrayBuffer>;
  /** How many registrations it holds, when it is a well-formed list of strings. */
  submitted?: number;
}

function jsonBody(kind: string, value: unknown): Omit<BulkBody, "contentType"> {
  return { kind, body: utf8(JSON.stringify(value)) };
}

/** `depth` levels of nesting written as text, so no recursion builds or prints it. */
function nestedText(depth: number, shape: "array" | "object" | "list"): string {
  switch (shape) {
    case "array":
      return "[".repeat(depth) + "]".repeat(depth);
    case "object":
      return (
        '{"registrations":'.repeat(depth) + '"AB12CDE"' + "}".repeat(depth)
      );
    case "list":
      return `{"registrations":${"[".repeat(depth)}"AB12CDE"${"]".repeat(depth)}}`;
  }
}

type Tree = null | boolean | number | string | Tree[] | { [key: string]: Tree };

/** Random trees of arrays and objects, built with fc.letrec, up to 40 levels deep. */
const tree = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: "small", maxDepth: 40 },
    fc.oneof(fc.constant(null), fc.boolean(), fc.double(), fc.string()),
    fc.array(tie("tree"), { maxLength: 3 }),
    fc.dictionary(
      fc.constantFrom("registrations", "a", "__proto__", "constructor", ""),
      tie("tree"),
      { maxKeys: 3 },
    ),
  ),
})).tree;

/** Bodies for a bulk check, from a good list to every way of getting one wrong. */
const bulkBodyContent = (): fc.Arbitrary<Omit<BulkBody, "contentType">> =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .array(registrationText(), { minLength: 1, maxLength: 30 })
        .map((registrations) => ({
          ...jsonBody("list of registrations", { registrations }),
          submitted: registrations.length,
        })),
    },
    {
      // At and over the item limit: 1,000 is answered, 1,001 is a 400.
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            BULK_MAX_REGISTRATIONS - 1,
            BULK_MAX_REGISTRATIONS,
            BULK_MAX_REGISTRATIONS + 1,
            5_000,
          ),
          fc.array(
            fc.constantFrom(...REFERENCE_REGISTRATIONS, "A1", "X", "ZZ99ZZZ"),
            {
              minLength: 1,
              maxLength: 5,
            },
          ),
        )
        .map(([count, plates]) => {
          const registrations = Array.from(
            { length: count },
            (_, index) => plates[index % plates.length] ?? "A1",
          );
          return {
            ...jsonBody(`${count} registrations`, { registrations }),
            submitted: count <= BULK_MAX_REGISTRATIONS ? count : undefined,
          };
        }),
    },
    {
      // Past the body limit: 64 KiB and a little, or a few times over.
      weight: 1,
      arbitrary: fc.integer({ min: 1, max: 4 }).map((times) =>
        jsonBody("over 64 KiB", {
          registrations: Array.from(
            { length: (BULK_MAX_BODY_BYTES * times) / 8 },
            () => "AB12CDE",
          ),
        }),
      ),
    },
    {
      weight: 3,
      arbitrary: fc
        .jsonValue({ maxDepth: 6 })
        .map((value) => jsonBody("any JSON", value)),
    },
    {
      weight: 3,
      arbitrary: fc
        .jsonValue({ maxDepth: 4 })
        .map((registrations) =>
          jsonBody("registrations of any type", { registrations }),
        ),
    },
    {
      weight: 2,
      arbitrary: fc
        .array(fc.jsonValue({ maxDepth: 3 }), { minLength: 1, maxLength: 10 })
        .map((registrations) =>
          jsonBody("items of any type", { registrations }),
        ),
    },
    {
      weight: 2,
      arbitrary: tree.map((value) => jsonBody("random tree", value)),
    },
    {
      // Deep nesting: past 1,000 levels, up to what fits in the body limit and beyond it.
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.integer({ min: 1_000, max: 40_000 }),
          fc.constantFrom("array", "object", "list"),
        )
        .map(([depth, shape]) => ({
          kind: `nested ${depth} deep (${shape})`,
          body: utf8(nestedText(depth, shape)),
        })),
    },
    {
      weight: 2,
      arbitrary: fc.string({ maxLength: 200 }).map((text) => ({
        kind: "text",
        body: utf8(text),
      })),
    },
    {
      // JSON cut short, or with something after it.
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.array(registrationText(), { minLength: 1, maxLength: 5 }),
          fc.nat(),
          fc.constantFrom("", "x", "}", ",", "\u0000", "]]"),
        )
        .map(([registrations, cut, tail]) => {
          const text = JSON.stringify({ registrations });
          return {
            kind: "broken JSON",
            body: utf8(text.slice(0, cut % text.length) + tail),
          };
        }),
    },
    {
      weight: 2,
      arbitrary: fc.uint8Array({ maxLength: 2_000 }).map((bytes) => ({
        kind: "random bytes",
        body: new Uint8Array(bytes),
      })),
    },
  );

/** A bulk check's POST: a body and a content type, mostly JSON so most bodies are read. */
export const bulkBody = (): fc.Arbitrary<BulkBody> =>
  fc
    .tuple(bulkBodyContent(), contentType())
    .map(([content, type]) => ({ ...content, contentType: type }));

export const TEN_MEGABYTES = 10 * 1024 * 1024;

/** A well-formed list of 10 MB: the deterministic huge body, tried once per route. */
export function tenMegabyteBody(): BulkBody {
  const item = '"AB12CDE",';
  const text = `{"registrations":[${item.repeat(Math.ceil(TEN_MEGABYTES / item.length))}"AB12CDE"]}`;
  return {
    kind: "10 MB list",
    contentType: JSON_CONTENT_TYPE,
    body: utf8(text),
  };
}

/** How a body shows in a report: its kind, type, size and start. */
export function describeBulkBody(body: BulkBody): string {
  const start = new TextDecoder().decode(body.body.subarray(0, 60));
  return `${body.kind}, ${body.contentType === null ? "no Content-Type" : JSON.stringify(body.contentType)}, ${body.body.byteLength.toLocaleString("en-GB")} bytes: ${JSON.stringify(start)}`;
}

/** An inbound X-Request-Id: absent, one the apps keep, or anything a client may send. */
export const requestIdHeader = (): fc.Arbitrary<string | undefined> =>
  fc.option(
    fc.oneof(
      fc.stringMatching(/^[A-Za-z0-9._-]{1,64}$/),
      fc.stringMatching(/^[A-Za-z0-9._-]{65,80}$/),
      headerValue(100),
    ),
    { nil: undefined },
  );

/**
 * A request method: mostly the route's own, then every other one fetch lets a client send
 * (CONNECT, TRACE and TRACK it refuses), in any letter case, and made-up ones.
 */
export const httpMethod = (usual: "GET" | "POST"): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constant(usual) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        "GET",
        "HEAD",
        "POST",
        "PUT",
        "PATCH",
        "DELETE",
        "OPTIONS",
        "PROPFIND",
        "get",
        "post",
        "options",
        "VICS",
      ),
    },
  );

/** Whether a method may carry a body in a fetch Request. */
export const carriesBody = (method: string): boolean =>
  !["GET", "HEAD"].includes(method.toUpperCase());
