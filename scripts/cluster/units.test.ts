import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderTemplate } from "./render.ts";
import { parseEnvironmentFile, readUnit } from "./units.ts";

const deploy = join(import.meta.dirname, "../../deploy");

describe("parseEnvironmentFile", () => {
  it("reads KEY=value lines, skipping comments and blank lines, keeping = in values", () => {
    expect(
      parseEnvironmentFile("# a comment\n\nA=1\nURL=postgres://u:p@h/db?x=y\n"),
    ).toEqual({ A: "1", URL: "postgres://u:p@h/db?x=y" });
  });

  it("refuses a line that is not KEY=value, naming it", () => {
    expect(() => parseEnvironmentFile("A=1\nexport B=2\n")).toThrow(
      /line 2: not KEY=value: export B=2/,
    );
  });
});

describe("readUnit", () => {
  const rendered = renderTemplate(
    readFileSync(join(deploy, "systemd/vics-service@.service"), "utf8"),
    { APP_DIR: "/opt/vics", ETC_DIR: "/etc/vics", NODE: "/usr/bin/node" },
  );

  /** The files as `files` holds them; any other is missing, as fs would say. */
  const reading = (files: Record<string, string>) => (path: string) => {
    if (path in files) return files[path]!;
    throw Object.assign(new Error(`ENOENT: ${path}`), { code: "ENOENT" });
  };

  it("starts the service unit's command in its folder with %i as its port, the replica's own file read after the shared one", () => {
    const unit = readUnit(
      rendered,
      "3101",
      reading({
        "/etc/vics/service.env":
          "DATABASE_URL=postgres://x\nHOST=127.0.0.1\nMETRICS_PORT=1\n",
        "/etc/vics/service-3101.env": "METRICS_PORT=9101\n",
      }),
    );
    expect(unit).toEqual({
      command: "/usr/bin/node",
      args: ["service/src/index.ts"],
      cwd: "/opt/vics",
      env: {
        PORT: "3101",
        DATABASE_URL: "postgres://x",
        HOST: "127.0.0.1",
        METRICS_PORT: "9101",
      },
      restartOnFailure: true,
      restartSeconds: 2,
    });
  });

  it("skips the replica's own file when it is missing (EnvironmentFile=-), never the shared one", () => {
    const unit = readUnit(
      rendered,
      "3102",
      reading({ "/etc/vics/service.env": "HOST=127.0.0.1\n" }),
    );
    expect(unit.env).toEqual({ PORT: "3102", HOST: "127.0.0.1" });
    expect(() => readUnit(rendered, "3102", reading({}))).toThrow(
      "ENOENT: /etc/vics/service.env",
    );
  });

  it("lets the environment file override Environment=, as systemd does", () => {
    const unit = readUnit(
      rendered,
      "3101",
      reading({ "/etc/vics/service.env": "PORT=9999\n" }),
    );
    expect(unit.env.PORT).toBe("9999");
  });

  it.each(["vics-service@.service", "vics-proxy@.service"])(
    "%s creates every file for the vics user alone (UMask=0077)",
    (unit) => {
      const text = readFileSync(join(deploy, "systemd", unit), "utf8");
      const service = text.split(/^\[Service\]$/m)[1]!.split(/^\[/m)[0]!;
      expect(service).toMatch(/^UMask=0077$/m);
    },
  );

  it("refuses a unit without ExecStart", () => {
    expect(() => readUnit("[Service]\nWorkingDirectory=/x\n", "1")).toThrow(
      /no ExecStart/,
    );
  });
});
