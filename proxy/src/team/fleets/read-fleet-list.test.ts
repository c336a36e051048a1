// A fleet's list is read a slice at a time: the same answers as the contract's schema, with
// the event loop turning while 100,000 vehicles are parsed and checked.
import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { NewFleetFieldsSchema, NewFleetSchema } from "@vics/shared";
import { errorHandler } from "@vics/server-kit/error-handlers";
import { silentLogger } from "@vics/server-kit/logger";
import { Hono } from "hono";
import { bodyRefusal } from "../../gateway/http/json-body.ts";
import { PROXY_PROBLEMS } from "../../gateway/http/problem.ts";
import { readFleetList } from "./read-fleet-list.ts";

const LIST = { maxBytes: 24 * 1024 * 1024, what: "The list" };

const app = new Hono();
app.onError(
  errorHandler({ logger: silentLogger, internal: PROXY_PROBLEMS.internal }),
);
app.post("/fleet", async (c) =>
  c.json(await readFleetList(c, LIST, NewFleetFieldsSchema)),
);

const post = (body: string) =>
  app.request("/fleet", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body,
  });

/** What the contract's schema makes of `body`, in readJsonBody's words. */
function contractAnswer(body: string): unknown {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { status: 400, detail: "The list is not valid JSON." };
  }
  const parsed = NewFleetSchema.safeParse(json);
  if (parsed.success) return { status: 200, body: parsed.data };
  return { status: 400, detail: bodyRefusal(parsed.error.issues).message };
}

async function answer(body: string): Promise<unknown> {
  const response = await post(body);
  const json = (await response.json()) as { detail?: string };
  return response.status === 200
    ? { status: 200, body: json }
    : { status: response.status, detail: json.detail };
}

/** Valid dateless plates: AX1 to AX9999, then BX1... */
const plate = (i: number) =>
  `${"ABCDEFGHJKL"[Math.floor(i / 9999)]}X${(i % 9999) + 1}`;

describe("reading a fleet's list", () => {
  it.each([
    [
      "a list, normalised and padded",
      JSON.stringify({
        name: " Vans ",
        columns: ["Driver", "Depot"],
        vehicles: [
          { registration: "ab12 cde", cells: ['Ann [x], "y" {z}'] },
          { registration: "SW71UWJ", cells: ["Sam", "Leeds"] },
        ],
      }),
    ],
    [
      "keys in any order, with spaces",
      ` { "vehicles" : [ { "cells" : [ ] , "registration" : "AB12CDE" } ] , "columns":[], "name":"A" } `,
    ],
    [
      "an escaped key",
      `{"name":"A","columns":[],"vehicl\\u0065s":[{"registration":"AB12CDE","cells":[]}]}`,
    ],
    ["no vehicles", `{"name":"A","columns":[],"vehicles":[ ]}`],
    ["no vehicles key", `{"name":"A","columns":[]}`],
    ["vehicles not a list", `{"name":"A","columns":[],"vehicles":{"a":1}}`],
    [
      "a repeat",
      JSON.stringify({
        name: "A",
        columns: [],
        vehicles: [
          { registration: "AB12CDE", cells: [] },
          { registration: "ab12 cde", cells: [] },
        ],
      }),
    ],
    [
      "bad plates",
      JSON.stringify({
        name: "A",
        columns: [],
        vehicles: [
          { registration: "!!", cells: [] },
          { registration: "AB12CDE", cells: [] },
          { registration: "??", cells: [] },
        ],
      }),
    ],
    [
      "too many cells",
      JSON.stringify({
        name: "A",
        columns: ["x"],
        vehicles: [{ registration: "AB12CDE", cells: ["1", "2"] }],
      }),
    ],
    [
      "a vehicle of the wrong shape",
      JSON.stringify({
        name: "A",
        columns: [],
        vehicles: [{ registration: "AB12CDE", cells: [] }, { registration: 7 }],
      }),
    ],
    [
      "no name",
      JSON.stringify({
        columns: [],
        vehicles: [{ registration: "AB12CDE", cells: [] }],
      }),
    ],
    [
      "a trailing comma",
      `{"name":"A","columns":[],"vehicles":[{"registration":"AB12CDE","cells":[]},]}`,
    ],
    [
      "an empty element",
      `{"name":"A","columns":[],"vehicles":[,{"registration":"AB12CDE","cells":[]}]}`,
    ],
    [
      "unclosed",
      `{"name":"A","columns":[],"vehicles":[{"registration":"AB12CDE","cells":[]}`,
    ],
    [
      "brackets that do not match",
      `{"name":"A","columns":[],"vehicles":[{"registration":"AB12CDE","cells":[}]]}`,
    ],
    ["not an object", `[{"registration":"AB12CDE","cells":[]}]`],
    ["a number", `7`],
    ["text after the list", `{"name":"A","columns":[],"vehicles":[]} x`],
    [
      "vehicles listed twice",
      `{"name":"A","columns":[],"vehicles":[{"registration":"!!","cells":[]}],"vehicles":[{"registration":"AB12CDE","cells":[]}]}`,
    ],
    [
      "quotes, backslashes and brackets in the text",
      JSON.stringify({
        'name"]': "x",
        name: "A\\",
        columns: ['\\"'],
        vehicles: [
          { registration: "AB12CDE", cells: ["\\"] },
          { registration: "SW71UWJ", cells: ['"],[{'] },
        ],
      }),
    ],
  ])("answers %s as the contract's schema does", async (_, body) => {
    expect(await answer(body)).toEqual(contractAnswer(body));
  });

  it("refuses a long text that is not a list without parsing it whole", async () => {
    const body = JSON.stringify({
      name: "A",
      columns: [],
      vehicle: Array.from({ length: 10_000 }, (_, i) => plate(i)),
    });
    expect(await answer(body)).toEqual({
      status: 400,
      detail:
        "The list is not a fleet's list: send one JSON object with its columns and vehicles.",
    });
  });

  it("refuses more vehicles than a fleet holds in the schema's words", async () => {
    const body = JSON.stringify({
      name: "A",
      columns: [],
      vehicles: Array.from({ length: 100_001 }, (_, i) => ({
        registration: plate(i),
        cells: [],
      })),
    });
    expect(await answer(body)).toEqual(contractAnswer(body));
  });

  it("lets the event loop turn while it reads 100,000 vehicles", async () => {
    const body = JSON.stringify({
      name: "Everything",
      columns: ["Driver", "Depot", "Notes"],
      vehicles: Array.from({ length: 100_000 }, (_, i) => ({
        registration: plate(i),
        cells: [`Driver ${i}`, "Leeds", 'a note [with, "brackets"]'],
      })),
    });
    let turns = 0;
    let reading = true;
    const ticker = (async () => {
      while (reading) {
        await nextTurn();
        turns++;
      }
    })();
    const response = await post(body);
    reading = false;
    await ticker;
    expect(response.status).toBe(200);
    const list = (await response.json()) as { vehicles: unknown[] };
    expect(list.vehicles).toHaveLength(100_000);
    expect(list.vehicles[99_999]).toEqual({
      registration: plate(99_999),
      cells: ["Driver 99999", "Leeds", 'a note [with, "brackets"]'],
    });
    // One turn at least for every 2,000 vehicles parsed and checked.
    expect(turns).toBeGreaterThanOrEqual(50);
  });
});
