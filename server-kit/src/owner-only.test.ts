import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { keepOwnerOnly, ownerOnlyFolder } from "./owner-only.ts";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0))
    rmSync(folder, { recursive: true, force: true });
});
const mode = (path: string) => statSync(path).mode & 0o777;

describe("owner-only files and folders", () => {
  it("takes group and other access off what exists, naming each it changed, once", () => {
    const folder = mkdtempSync(join(tmpdir(), "vics-owner-"));
    folders.push(folder);
    const file = join(folder, "proxy.sqlite");
    const logs = join(folder, "logs");
    writeFileSync(file, "x");
    chmodSync(file, 0o644);
    mkdirSync(logs);
    chmodSync(logs, 0o755);
    const kept = join(folder, "kept");
    writeFileSync(kept, "x", { mode: 0o600 });
    chmodSync(kept, 0o600);

    expect(keepOwnerOnly([file, logs, kept, join(folder, "missing")])).toEqual([
      { path: file, was: 0o644 },
      { path: logs, was: 0o755 },
    ]);
    expect([mode(file), mode(logs), mode(kept)]).toEqual([0o600, 0o700, 0o600]);
    expect(keepOwnerOnly([file, logs, kept])).toEqual([]);
  });

  it("keeps the owner's own bits, and never closes a shared sticky folder such as /tmp", () => {
    const folder = mkdtempSync(join(tmpdir(), "vics-owner-"));
    folders.push(folder);
    const script = join(folder, "run.sh");
    writeFileSync(script, "#!/bin/sh\n");
    chmodSync(script, 0o755);
    const shared = join(folder, "shared");
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    expect(keepOwnerOnly([script, shared])).toEqual([
      { path: script, was: 0o755 },
    ]);
    expect([mode(script), statSync(shared).mode & 0o7777]).toEqual([
      0o700, 0o1777,
    ]);
  });

  it("makes a folder and its new parents 0700, and an existing one owner-only", () => {
    const folder = mkdtempSync(join(tmpdir(), "vics-owner-"));
    folders.push(folder);
    chmodSync(folder, 0o755);
    const deep = join(folder, "data", "logs");
    expect(ownerOnlyFolder(deep)).toEqual([]);
    expect([mode(join(folder, "data")), mode(deep)]).toEqual([0o700, 0o700]);
    expect(ownerOnlyFolder(folder)).toEqual([{ path: folder, was: 0o755 }]);
    expect(mode(folder)).toBe(0o700);
  });
});
