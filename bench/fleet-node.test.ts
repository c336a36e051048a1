import { describe, expect, it } from "vitest";
import { fleetRunInNode } from "./fleet-node.ts";

describe("the fleet run in Node", () => {
  it.each(["http://127.0.0.1:9/", "http://127.0.0.1:9"])(
    "asks %s for /api/v1/... with one slash, the bulk route's own path",
    async (proxyUrl) => {
      const asked: string[] = [];
      const send: typeof fetch = async (input) => {
        asked.push(String(input));
        return new Response("refused", { status: 400 });
      };
      // Every answer a 400: the run ends with rows not checked, and says so.
      await expect(
        fleetRunInNode(proxyUrl, "vics_session=x", ["AB12CDE"], send),
      ).rejects.toThrow("fleet run in Node");
      expect(asked.length).toBeGreaterThan(0);
      for (const url of asked)
        expect(url).toBe("http://127.0.0.1:9/api/v1/vehicle/bulk-insurance");
    },
  );
});
