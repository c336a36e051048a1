import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { killOnExit } from "@vics/shared/testing/kill-on-exit";
import { describe, expect, it } from "vitest";

const SCRIPT = fileURLToPath(new URL("./mot-stand-in.ts", import.meta.url));

describe("the MOT stand-in as a process", () => {
  it("prints its addresses and issues a token to the client it was given", async () => {
    const child = spawn(process.execPath, [
      SCRIPT,
      "--port",
      "0",
      "--client-id",
      "e2e-client",
      "--client-secret",
      "e2e-secret",
    ]);
    killOnExit(child);
    try {
      const [line] = (await once(
        createInterface({ input: child.stdout }),
        "line",
      )) as [string];
      const { tokenUrl, scope } = JSON.parse(line) as {
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
      expect(await response.json()).toMatchObject({
        token_type: "Bearer",
        expires_in: 3600,
      });
    } finally {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
  });
});
