import {
  chmodSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { appendOnlyLog, ownerOnlyData } from "./data-permissions.ts";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0))
    rmSync(root, { recursive: true, force: true });
});
const mode = (path: string) => statSync(path).mode & 0o777;

/** A repository root whose data/ was left by an older `npm start`: 0644 files, 0755 folders. */
function oldDataFolder() {
  const root = mkdtempSync(join(tmpdir(), "vics-start-"));
  roots.push(root);
  const data = join(root, "data");
  mkdirSync(join(data, "logs"), { recursive: true });
  const files = [
    "vics.sqlite",
    "vics.sqlite-wal",
    "vics.sqlite-shm",
    "proxy.sqlite",
    "proxy.sqlite-wal",
    "proxy-api-key",
    "watch-api-key",
    "logs/proxy.log",
    "logs/service.log",
  ];
  for (const file of files) {
    writeFileSync(join(data, file), "x");
    chmodSync(join(data, file), 0o644);
  }
  chmodSync(join(data, "logs"), 0o755);
  chmodSync(data, 0o755);
  return { root, data, files };
}

describe("npm start's data folder", () => {
  it("is made the user's alone, with one warn line naming what was readable", () => {
    const { root, data, files } = oldDataFolder();
    const warning = ownerOnlyData(root, data);
    for (const file of files)
      expect([file, mode(join(data, file))]).toEqual([file, 0o600]);
    expect([mode(data), mode(join(data, "logs"))]).toEqual([0o700, 0o700]);
    expect(warning).toMatch(/^npm start: /);
    expect(warning?.split("\n")).toHaveLength(1);
    for (const shown of [
      "data (was 755)",
      "data/logs (was 755)",
      "data/proxy.sqlite (was 644)",
      "data/vics.sqlite-wal (was 644)",
      "data/logs/proxy.log (was 644)",
      "data/proxy-api-key (was 644)",
    ])
      expect(warning).toContain(shown);
    expect(warning).toContain("other users of this machine could read");
    // Once fixed, a later start has nothing to say.
    expect(ownerOnlyData(root, data)).toBeUndefined();
  });

  it("is made 0700 when it is new, without a warning", () => {
    const root = mkdtempSync(join(tmpdir(), "vics-start-"));
    roots.push(root);
    const data = join(root, "data");
    expect(ownerOnlyData(root, data)).toBeUndefined();
    expect([mode(data), mode(join(data, "logs"))]).toEqual([0o700, 0o700]);
  });

  it("leaves what is not VICS's in the folder as it is", () => {
    const { root, data } = oldDataFolder();
    const script = join(data, "backup.sh");
    writeFileSync(script, "#!/bin/sh\n");
    chmodSync(script, 0o755);
    ownerOnlyData(root, data);
    expect(mode(script)).toBe(0o755);
  });

  it("opens a new log 0600 for appending", () => {
    const { data } = oldDataFolder();
    const path = join(data, "logs", "new.log");
    closeSync(appendOnlyLog(path));
    expect(mode(path)).toBe(0o600);
  });
});
