import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { fileDigest } from "./file-digest.ts";

it("reads a file larger than one stream chunk whole: its SHA-256 and its size", async () => {
  const folder = mkdtempSync(join(tmpdir(), "vics-digest-"));
  try {
    const content = Buffer.alloc(200_000, "VICS");
    const path = join(folder, "dump");
    writeFileSync(path, content);
    expect(await fileDigest(path)).toEqual({
      sha256: createHash("sha256").update(content).digest("hex"),
      bytes: 200_000,
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
