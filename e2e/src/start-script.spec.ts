// `npm start` (scripts/start.ts) as an operator meets it: it starts both processes on the ports
// it is given, says once what runs where, keeps the demo key in the data folder without
// printing it, writes the children's logs to files there, reuses the key next time, and
// Ctrl-C (SIGINT) stops both.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, relative, resolve } from "node:path";
import { CLIENT_HEADER } from "@vics/shared";
import { expect, test } from "./fixtures.ts";
import { freePort } from "@vics/shared/testing/free-port";
import { linkToken } from "./auth/sign-in.ts";

const root = resolve(import.meta.dirname, "../..");

interface Run {
  output: () => string;
  ready: Promise<void>;
  /** Ctrl-C, then waits until every process it started has gone; resolves with its exit code. */
  stop: () => Promise<number | null>;
}

function groupIsRunning(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A newcomer's shell: none of the variables npm sets for the scripts it runs (this test is one),
 * and no `.tools/` on PATH, so `npm start` goes through the Node 24 bootstrap where the
 * machine's own node is older.
 */
function newcomerEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env)
      .filter(([name]) => !/^npm_/i.test(name))
      .map(([name, value]) => [
        name,
        name === "PATH"
          ? (value ?? "")
              .split(delimiter)
              .filter((dir) => !dir.includes(`${root}/.tools/`))
              .join(delimiter)
          : (value ?? ""),
      ]),
  );
}

function startVics(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Run {
  const child = spawn(command, args, {
    cwd,
    env: { ...newcomerEnv(), ...env },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, as in a terminal, where Ctrl-C signals the whole group.
    detached: true,
  });
  let output = "";
  let running = true;
  const exited = new Promise<number | null>((done) =>
    child.once("exit", (code) => {
      running = false;
      done(code);
    }),
  );
  const ctrlC = () => {
    if (running && child.pid) process.kill(-child.pid, "SIGINT");
  };
  started.push(ctrlC);
  const ready = new Promise<void>((done, fail) => {
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("VICS is running")) done();
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    void exited.then((code) =>
      fail(new Error(`start.ts exited early (${code}):\n${output}`)),
    );
  });
  return {
    output: () => output,
    ready,
    stop: async () => {
      ctrlC();
      const code = await exited;
      // npm itself leaves on Ctrl-C at once; start.ts and its children take a moment more.
      while (child.pid && groupIsRunning(child.pid))
        await new Promise((resolve) => setTimeout(resolve, 100));
      return code;
    },
  };
}

/** Ctrl-C for every run still going, so a failed assertion leaves no VICS behind. */
const started: (() => void)[] = [];
test.afterEach(() => {
  for (const ctrlC of started.splice(0)) ctrlC();
});

async function refused(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2000) });
    return false;
  } catch {
    return true;
  }
}

function logLines(file: string): Record<string, unknown>[] {
  return readFileSync(file, "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

test.use({ signedInAs: null });

test("starts the service and proxy, says once where, offers the first admin a one-time sign-in link, keeps its key private and its logs in files, reuses the key, and stops on Ctrl-C", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const dataDir = mkdtempSync(join(tmpdir(), "vics-start-"));
  const port = await freePort();
  const servicePort = await freePort();
  const env = {
    DATA_DIR: dataDir,
    PORT: String(port),
    SERVICE_PORT: String(servicePort),
  };
  const appUrl = `http://127.0.0.1:${port}/`;

  // As README says: `npm start`, in the repository.
  const first = startVics("npm", ["start"], root, env);
  await first.ready;
  const output = first.output();
  expect(output).toContain(
    `VICS is running at ${appUrl} — press Ctrl-C to stop.`,
  );
  expect(output.split(`127.0.0.1:${port}`)).toHaveLength(2);
  expect(output).toContain(`Service   http://127.0.0.1:${servicePort}`);
  expect(output).toMatch(
    /Database {2}\S+vics\.sqlite \(created and seeded in \d+\.\d s\)/,
  );
  expect(output).toContain(`${join(dataDir, "proxy-api-key")} (new;`);
  expect(output).toContain(`${join(dataDir, "watch-api-key")} (new;`);
  expect(output).toContain(join(dataDir, "logs", "service.log"));
  expect(output).not.toContain("/health");
  expect(output).not.toContain('"msg"');
  expect(output).not.toContain("Unknown env config");

  const home = await fetch(appUrl);
  expect(home.status).toBe(200);
  expect(await home.text()).toContain('<div id="root">');
  const checkUrl = `${appUrl}api/v1/vehicle/AB12CDE/insurance`;
  expect(
    (await fetch(checkUrl, { headers: { [CLIENT_HEADER]: "e2e" } })).status,
  ).toBe(401);

  // The first start offers a one-time link that signs in as the first admin.
  await expect
    .poll(() => first.output())
    .toMatch(/Sign in to VICS as the first admin \(admin@localhost\)/);
  // Tidy: no line that is a child's label and nothing else (README's sample is what it prints),
  // once the link and the line after it are out.
  await expect.poll(() => first.output()).toMatch(/#token=\S+\n\[proxy\] .+\n/);
  expect(first.output()).not.toMatch(/^\[(proxy|service)\]\s*$/m);
  const linkLine = first
    .output()
    .split("\n")
    .find((line) => line.includes("#token="))!;
  expect(linkLine).toContain(`${appUrl}sign-in/link#token=`);
  // Opened in the browser as printed: signed in as the first admin, at the app.
  const link = /(http\S+#token=\S+)/.exec(linkLine)![1]!;
  await page.goto(link);
  await expect(page.getByText("Signed in as")).toBeVisible();
  await expect(page.getByRole("button", { name: "Admin" })).toBeVisible();
  expect(page.url()).not.toContain("token=");
  const session = (await page.context().cookies()).find(
    (cookie) => cookie.name === "vics_session",
  )!;
  const cookie = `${session.name}=${session.value}`;
  // Once only: the same link again signs no one in.
  expect(
    (
      await fetch(`${appUrl}api/auth/sign-in-link`, {
        method: "POST",
        headers: { "Content-Type": "application/json", [CLIENT_HEADER]: "e2e" },
        body: JSON.stringify({ token: linkToken(linkLine) }),
      })
    ).status,
  ).toBe(400);
  const check = await fetch(checkUrl, {
    headers: { [CLIENT_HEADER]: "e2e", Cookie: cookie },
  });
  expect(check.status).toBe(200);
  expect(await check.json()).toMatchObject({
    registration: "AB12CDE",
    insured: true,
  });

  const keyFile = join(dataDir, "proxy-api-key");
  const key = readFileSync(keyFile, "utf8").trim();
  expect(key.length).toBeGreaterThanOrEqual(22);
  expect(statSync(keyFile).mode & 0o077).toBe(0);
  expect(first.output()).not.toContain(key);

  // npm leaves on Ctrl-C as a shell's Ctrl-C leaves it, killed by the signal (no exit code).
  expect(await first.stop()).toBeNull();
  expect(await refused(appUrl)).toBe(true);
  expect(await refused(`http://127.0.0.1:${servicePort}/health`)).toBe(true);

  // The check is in both logs, under one request id and the route's template.
  const requestId = check.headers.get("X-Request-Id");
  const serviceLog = join(dataDir, "logs", "service.log");
  const proxyLog = join(dataDir, "logs", "proxy.log");
  expect(logLines(serviceLog)).toContainEqual(
    expect.objectContaining({
      service: "service",
      msg: "request",
      requestId,
      route: "/v1/vehicle/:registration/insurance",
      status: 200,
    }),
  );
  expect(logLines(proxyLog)).toContainEqual(
    expect.objectContaining({
      service: "proxy",
      msg: "request",
      requestId,
      route: "/api/v1/vehicle/:registration/insurance",
      status: 200,
    }),
  );
  for (const file of [serviceLog, proxyLog]) {
    // Each stopped cleanly on Ctrl-C, and its "stopped" line, logged just before exit, reached
    // the file. (Not checked as the last line: at exit, pino's synchronous flush can land
    // before an asynchronous write still under way, so "stopping" has been seen after it.)
    expect(logLines(file).map((line) => line.msg)).toContain("stopped");
    const text = readFileSync(file, "utf8");
    expect(text).not.toContain("AB12CDE");
    expect(text).not.toContain(key);
    expect(text).not.toContain('"route":"/health"');
  }

  // From another folder, with DATA_DIR relative to the repository root: the same data.
  const elsewhere = join(dataDir, "some", "other", "folder");
  mkdirSync(elsewhere, { recursive: true });
  const second = startVics(
    process.execPath,
    [join(root, "scripts/start.ts")],
    elsewhere,
    { ...env, DATA_DIR: relative(root, dataDir) },
  );
  await second.ready;
  expect(second.output()).toContain(`${keyFile} (reused;`);
  expect(second.output()).toMatch(/Database {2}\S+vics\.sqlite \(existing\)/);
  expect(readFileSync(keyFile, "utf8").trim()).toBe(key);
  // The proxy's store is kept too: the session from before the restart still works.
  expect(
    (
      await fetch(checkUrl, {
        headers: { [CLIENT_HEADER]: "e2e", Cookie: cookie },
      })
    ).status,
  ).toBe(200);
  expect(await second.stop()).toBe(0);
});
