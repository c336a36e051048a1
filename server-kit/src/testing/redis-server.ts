/**
 * `@vics/server-kit/testing/redis-server`: a real Redis (Debian's `redis-server`) on a free loopback
 * port, for the limiter tests, the fault drills and `npm run cluster`. Stopped and started
 * again on the same port, so a test can take Redis away and bring it back. Test and tool
 * support, never imported by an app.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@vics/shared/testing/free-port";
import { killOnExit } from "@vics/shared/testing/kill-on-exit";

export interface RedisServer {
  port: number;
  /** redis://127.0.0.1:port */
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** SIGSTOP: the socket stays open and nothing answers (a frozen server, a dropped network). */
  freeze(): void;
  /** SIGCONT, after freeze(). */
  thaw(): void;
  /** Stops it and removes a temporary folder. */
  close(): Promise<void>;
}

export interface RedisOptions {
  /** Kept between runs (the cluster's data folder); default: a temporary folder, no saving. */
  dataDir?: string;
  port?: number;
  /** REDIS_SERVER, else redis-server on PATH. */
  command?: string;
  /** A process group of its own, as for PostgreSQL (postgres-server.ts). Default false. */
  ownProcessGroup?: boolean;
}

/** The redis-server to run: REDIS_SERVER, else redis-server on PATH. */
export const redisServerCommand = (): string =>
  process.env.REDIS_SERVER ?? "redis-server";

export async function startRedis(
  options: RedisOptions = {},
): Promise<RedisServer> {
  const temporary = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "vics-redis-"));
  mkdirSync(dataDir, { recursive: true });
  const port = options.port ?? (await freePort());
  const command = options.command ?? redisServerCommand();
  let child: ChildProcess | undefined;
  let messages = "";

  async function start() {
    const group = options.ownProcessGroup ?? false;
    const started = spawn(
      command,
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--dir",
        dataDir,
        // Rate-limit windows last a minute: nothing worth writing to disk in tests.
        ...(temporary ? ["--save", "", "--appendonly", "no"] : []),
      ],
      {
        stdio: ["ignore", "pipe", "pipe"],
        detached: group,
      },
    );
    child = started;
    killOnExit(started, { group });
    const keep = (chunk: Buffer) => {
      messages = (messages + chunk.toString()).slice(-4000);
    };
    started.stdout?.on("data", keep);
    started.stderr?.on("data", keep);
    const spawnError = once(started, "error").then(([error]) => {
      throw new Error(
        `${command} did not start (${String(error)}): apt-get install -y redis-server`,
      );
    });
    await Promise.race([
      waitUntilAnswering(port, started, () => messages),
      spawnError,
    ]);
  }

  async function stop() {
    const current = child;
    child = undefined;
    if (!current || current.exitCode !== null || current.signalCode !== null)
      return;
    const exited = once(current, "exit");
    current.kill("SIGKILL");
    await exited;
  }

  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    start,
    stop,
    freeze: () => child?.kill("SIGSTOP"),
    thaw: () => child?.kill("SIGCONT"),
    async close() {
      await stop();
      if (temporary) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** PING over a plain socket until PONG. */
async function waitUntilAnswering(
  port: number,
  child: ChildProcess,
  messages: () => string,
) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`redis-server exited:\n${messages()}`);
    const answered = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.setTimeout(1000);
      socket.once("connect", () => socket.write("PING\r\n"));
      socket.once("data", (data) => {
        socket.destroy();
        resolve(data.toString().startsWith("+PONG"));
      });
      socket.once("error", () => resolve(false));
      socket.once("timeout", () => {
        socket.destroy();
        resolve(false);
      });
    });
    if (answered) return;
    if (Date.now() > deadline)
      throw new Error(
        `redis-server did not answer within 20 s:\n${messages()}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
