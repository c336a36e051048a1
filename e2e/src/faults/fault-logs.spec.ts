// Faults and logs (docs/reliability.md, sections 2 and 5): what the proxy writes when the
// upstream fails. Each fault is a warning that names the route and the request, never the plate
// asked about nor the key.
import { CLIENT_HEADER } from "@vics/shared";
import { FAULTS, PROXY_ANSWERS, platesWith } from "./fault-cases.ts";
import { expect, test } from "./fault-fixtures.ts";
import { FAULT_PROXY_KEY } from "./fault-stack.ts";

interface LogLine {
  level?: string;
  msg?: string;
  requestId?: string;
  route?: string;
}

test("every fault is a warning with its route and request id, and no plate or key", async ({
  faults,
}) => {
  const plates = platesWith("insured", FAULTS.length, "LG");
  const requestIds: string[] = [];
  for (const [index, fault] of FAULTS.entries()) {
    await faults.upstream.use(fault);
    const response = await fetch(
      `${faults.proxyUrl}/api/v1/compliance/${plates[index]}`,
      {
        headers: {
          [CLIENT_HEADER]: "e2e",
          Cookie: `${faults.session.name}=${faults.session.value}`,
        },
      },
    );
    expect(response.status, fault).toBe(PROXY_ANSWERS[fault].status);
    const problem = (await response.json()) as { requestId: string };
    requestIds.push(problem.requestId);
  }

  const lines = () =>
    faults
      .proxyOutput()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as LogLine);
  await expect
    .poll(() =>
      requestIds.map((id) =>
        lines().find((line) => line.requestId === id && line.level === "warn"),
      ),
    )
    .toEqual(
      requestIds.map((requestId) =>
        expect.objectContaining({
          requestId,
          route: "/api/v1/compliance/:registration",
        }),
      ),
    );
  const output = faults.proxyOutput();
  expect(output.includes(FAULT_PROXY_KEY), "the key in the log").toBe(false);
  for (const plate of plates)
    expect(output, "a plate in the log").not.toMatch(
      new RegExp(`${plate.slice(0, 4)}\\s?${plate.slice(4)}`, "i"),
    );
});
