// A fleet's list, read without holding the event loop: the body's text is split around its
// vehicles (split-fleet-json.ts), the rest checked by its schema, then the vehicles parsed and
// checked a slice at a time with the contract's own rules (fleetVehicleRules in @vics/shared),
// the loop turning between slices. The answers are the schema's: the same list, or the same
// first problem in the same words, with how many more there are.
import { setImmediate as nextTurn } from "node:timers/promises";
import {
  FleetColumnsSchema,
  FleetListSchema,
  FleetVehicleSchema,
  FleetVehiclesSchema,
  fleetVehicleRules,
  type FleetList,
  type FleetVehicle,
  FLEET_MAX_VEHICLES,
} from "@vics/shared";
import {
  malformedRequest,
  payloadTooLarge,
} from "@vics/server-kit/problem-error";
import type { Context } from "hono";
import { z } from "zod";
import { bodyRefusal, type BodyIssue } from "../../gateway/http/json-body.ts";
import { splitFleetJson } from "./split-fleet-json.ts";

/** Vehicles parsed and checked between turns of the event loop: a few milliseconds' work. */
const SLICE = 500;

/** A text this short is parsed whole when it is not a list, for the schema's exact words. */
const SMALL_TEXT = 64 * 1024;

const within = (
  path: PropertyKey[],
  index: number,
  issue: z.core.$ZodIssue,
) => ({
  ...issue,
  path: [...path, index, ...issue.path],
});

/**
 * The body's text, decoded a piece at a time as it arrives (one decode of 24 MB at the end, as
 * Request.text() does, holds the loop), and cut off past `maxBytes`.
 */
async function bodyText(
  c: Context,
  maxBytes: number,
  what: string,
): Promise<string> {
  const body = c.req.raw.body;
  if (!body) return "";
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let bytes = 0;
  for await (const chunk of body) {
    bytes += chunk.byteLength;
    if (bytes > maxBytes) throw payloadTooLarge(`${what} is too large.`);
    parts.push(decoder.decode(chunk, { stream: true }));
  }
  parts.push(decoder.decode());
  return parts.join("");
}

/**
 * The body as `head` (the fields beside the list: a name, a version) and a fleet's list, as
 * `head.and(FleetListSchema)` would parse it. Counts the body against `maxBytes` too.
 */
export async function readFleetList<H extends z.ZodObject>(
  c: Context,
  { maxBytes, what }: { maxBytes: number; what: string },
  head: H = z.object({}) as H,
): Promise<z.output<H> & FleetList> {
  const type = c.req.header("Content-Type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type))
    throw malformedRequest(
      "Send the form as JSON (Content-Type: application/json).",
    );
  if (Number(c.req.header("Content-Length") ?? 0) > maxBytes)
    throw payloadTooLarge(`${what} is too large.`);
  const text = await bodyText(c, maxBytes, what);
  const notJson = () => malformedRequest(`${what} is not valid JSON.`);

  const split = await splitFleetJson(text);
  if (!split || (split.starts.length === 0 && split.head === text)) {
    if (text.length > SMALL_TEXT)
      throw malformedRequest(
        `${what} is not a fleet's list: send one JSON object with its columns and vehicles.`,
      );
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw notJson();
    }
    const parsed = z.intersection(head, FleetListSchema).safeParse(json);
    if (!parsed.success) throw bodyRefusal(parsed.error.issues);
    return parsed.data as never;
  }

  let fields: unknown;
  try {
    fields = JSON.parse(split.head);
  } catch {
    throw notJson();
  }
  const count = split.starts.length;
  // The fields, and the list's length, checked as the schema would before any vehicle.
  const headParsed = z
    .object({ ...head.shape, columns: FleetColumnsSchema })
    .safeParse(fields);
  const issues: BodyIssue[] = headParsed.success
    ? []
    : [...headParsed.error.issues];
  const lengthOk = FleetVehiclesSchema.safeParse(
    count > FLEET_MAX_VEHICLES ? new Array(count) : count === 0 ? [] : [{}],
  );
  if (count === 0 || count > FLEET_MAX_VEHICLES) {
    if (!lengthOk.success)
      issues.push(
        ...lengthOk.error.issues
          .filter(
            (issue) => issue.code === "too_small" || issue.code === "too_big",
          )
          .map((issue) => ({ ...issue, path: ["vehicles"] })),
      );
    // Too long to read: the schema would refuse it whatever it holds.
    if (count > FLEET_MAX_VEHICLES) throw bodyRefusal(issues);
  }

  // One pass: each slice parsed, its shapes checked, then the contract's rules. The schema
  // says a shape's problems before any rule's, so the rules' are kept apart until the end.
  const columns = headParsed.success
    ? (headParsed.data as { columns: string[] }).columns
    : [];
  const rules = fleetVehicleRules(columns.length);
  const ruleIssues: BodyIssue[] = [];
  const vehicles: FleetVehicle[] = [];
  for (let start = 0; start < count; start += SLICE) {
    const end = Math.min(start + SLICE, count);
    let slice: unknown[];
    try {
      slice = JSON.parse(
        `[${text.slice(split.starts[start], split.ends[end - 1])}]`,
      ) as unknown[];
    } catch {
      throw notJson();
    }
    if (slice.length !== end - start) throw notJson();
    slice.forEach((listed, i) => {
      const parsed = FleetVehicleSchema.safeParse(listed);
      if (!parsed.success) {
        issues.push(
          ...parsed.error.issues.map((issue) =>
            within(["vehicles"], start + i, issue),
          ),
        );
      } else if (issues.length === 0) {
        const { vehicle, issue } = rules(parsed.data, start + i);
        if (issue) ruleIssues.push({ ...issue, code: "custom" });
        vehicles.push(vehicle);
      }
    });
    await nextTurn();
  }
  if (issues.length > 0) throw bodyRefusal(issues);
  if (ruleIssues.length > 0) throw bodyRefusal(ruleIssues);
  return { ...(headParsed.data as object), columns, vehicles } as never;
}
