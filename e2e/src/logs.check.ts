// Run after every other journey (a project of its own that depends on the browser one): the
// logs the whole e2e run left behind hold no API key and no registration, only keyed hashes.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REFERENCE_REGISTRATIONS, SANDBOX_REGISTRATIONS } from "@vics/shared";
import { expect, test } from "./fixtures.ts";
import { stackEnv } from "./stack-env.ts";

// The plates the journeys use by name, and the one they use for "not found".
const PLATES = [
  ...REFERENCE_REGISTRATIONS,
  ...Object.keys(SANDBOX_REGISTRATIONS),
  "ZZ99ZZZ",
];

/** A plate as it may appear: AB12CDE, AB12 CDE, ab12cde, AB12-CDE... */
function platePattern(plate: string): RegExp {
  const [, head, tail] = /^(.+?)(.{3})$/.exec(plate) ?? [];
  return new RegExp(`${head}[\\s-]?${tail}`, "i");
}

test("the e2e run's logs hold no API key and no registration", async ({
  proxyKey,
}) => {
  const { dataDir } = await stackEnv();
  for (const name of ["service", "proxy"]) {
    const text = readFileSync(join(dataDir, "logs", `${name}.log`), "utf8");
    const lines = text.split("\n").filter(Boolean);
    // The suite did make checks through both, so an empty log proves nothing.
    const requests = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((event) => event.msg === "request");
    expect(requests.length, `${name} request lines`).toBeGreaterThan(50);
    expect(
      requests.some((event) =>
        /^[0-9a-f]{12}$/.test(String(event.registration)),
      ),
      `${name} logs registrations as keyed hashes`,
    ).toBe(true);
    expect(text.includes(proxyKey), `${name}.log holds the API key`).toBe(
      false,
    );
    for (const plate of PLATES)
      expect(platePattern(plate).test(text), `${name}.log holds ${plate}`).toBe(
        false,
      );
  }
});
