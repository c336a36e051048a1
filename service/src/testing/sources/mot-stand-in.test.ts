import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { killOnExit } from "@vics/shared/testing/kill-on-exit";
import { describe, expect, it } from "vitest";

const SCRIPT = fileURLToPath(new URL("./mot-stand-in.ts", import.meta.url));

describe("the MOT stand-in as a process", () => {
  it("prints its addresses, issues tokens and takes its switches over HTTP", async () => {
    const child = spawn(process.execPath, [
      SCRIPT,
      "--port",
      "0",
      "--client-id",
      "e2e-client",
      "--client-secret",
      "e2e-secret",
      "--api-key",
      "e2e-key",
    ]);
    killOnExit(child);
    try {
      const [line] = (await once(
        createInterface({ input: child.stdout }),
        "line",
      )) as [string];
      const { baseUrl, tokenUrl, scope } = JSON.parse(line) as {
        baseUrl: string;
        tokenUrl: string;
        scope: string;
      };
      const response = await fetch(tokenUrl, {
        method: "POST",
        body: new URLSearchParams({
          grant_type: "client_credentials",
          client_id: "e2e-client",
          client_secret: "e2e-secret",
          scope,
        }),
      });
      expect(response.status).toBe(200);
      const token = (await response.json()) as {
        access_token: string;
        expires_in: number;
      };
      expect(token.expires_in).toBe(3600);
      const lookUp = async () => {
        const answer = await fetch(
          `${baseUrl}/v1/trade/vehicles/registration/AB12CDE`,
          {
            headers: {
              authorization: `Bearer ${token.access_token}`,
              "x-api-key": "e2e-key",
            },
          },
        );
        return (await answer.json()) as unknown;
      };
      const put = await fetch(`${baseUrl}/_stand-in/vehicles/AB12CDE`, {
        method: "PUT",
        body: JSON.stringify({ make: "FORD", motTests: [] }),
      });
      expect(put.status).toBe(204);
      expect(await lookUp()).toMatchObject({ make: "FORD" });
      await fetch(`${baseUrl}/_stand-in/revoke-api-key`, { method: "POST" });
      expect(await lookUp()).toMatchObject({ errorCode: "MOTH-FB-03" });
    } finally {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
  });
});
