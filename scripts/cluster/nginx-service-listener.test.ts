// deploy/nginx/vics.conf's listener in front of the service replicas, with nginx running the
// rendered site in front of two stand-in replicas: a service's 503 SOURCE_UNAVAILABLE (one
// vehicle whose live register could not be asked, decision 059) is its answer, passed on
// unchanged, never retried on another replica, and it does not take the replica out.
import { once } from "node:events";
import {
  Agent,
  createServer,
  request,
  type IncomingMessage,
  type Server,
} from "node:http";
import type { AddressInfo } from "node:net";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paths, PROBLEM_TITLES, problemType } from "@vics/shared";
import { freePort } from "@vics/shared/testing/free-port";
import { Nginx, upstreamServers } from "./nginx.ts";
import { renderSite, requireNginx, siteDirectory } from "./site-under-test.ts";

const dir = siteDirectory("vics-nginx-services-");

/** Replica A's answer for a vehicle it has never seen: its register could not be asked. */
const REFUSAL = {
  type: problemType("SOURCE_UNAVAILABLE"),
  title: PROBLEM_TITLES.SOURCE_UNAVAILABLE,
  status: 503,
  detail:
    "The DVLA's register could not be asked about this vehicle: it is down for maintenance. Retry in 2 minutes.",
  code: "SOURCE_UNAVAILABLE",
  requestId: "req-a",
};
const RETRY_AFTER = "120";

/** A vehicle no replica holds: replica A's register is down, so it answers REFUSAL. */
const isNew = (path: string) => path.includes("NEW");

/** Each request a replica was asked, in order: which replica, which path. */
const seen: Array<{ replica: "A" | "B"; path: string }> = [];

function standIn(replica: "A" | "B"): Server {
  return createServer((incoming, outgoing) => {
    const path = incoming.url ?? "";
    seen.push({ replica, path });
    if (replica === "A" && isNew(path)) {
      outgoing.writeHead(503, {
        "Content-Type": "application/problem+json",
        "Retry-After": RETRY_AFTER,
      });
      outgoing.end(JSON.stringify(REFUSAL));
      return;
    }
    outgoing.writeHead(200, { "Content-Type": "application/json" });
    outgoing.end(JSON.stringify({ replica }));
  });
}

const replicas = { A: standIn("A"), B: standIn("B") };
let nginx: Nginx | undefined;
let servicePort: number;
// One connection to nginx, so one worker (each keeps its own count of a replica's failures).
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

beforeAll(async () => {
  const ports: number[] = [];
  for (const server of [replicas.A, replicas.B]) {
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    ports.push((server.address() as AddressInfo).port);
  }
  servicePort = await freePort();
  const files = renderSite(dir, {
    SERVICE_LISTEN: `127.0.0.1:${servicePort}`,
    // As `npm run cluster` writes them: max_fails=1 fail_timeout=2s each.
    SERVICE_SERVERS: upstreamServers(ports),
    HTTP_LISTEN: `127.0.0.1:${await freePort()}`,
    HTTPS_LISTEN: `127.0.0.1:${await freePort()}`,
    PROXY_SERVERS: upstreamServers([9]),
  });
  nginx = new Nginx(
    requireNginx(),
    join(dir, "nginx"),
    files["nginx/vics.conf"],
  );
  await nginx.start();
});

afterAll(async () => {
  agent.destroy();
  await nginx?.stop();
  replicas.A.close();
  replicas.B.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: IncomingMessage["headers"];
  body: string;
}

function get(path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const client = request(
      { host: "127.0.0.1", port: servicePort, path, agent },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body,
          }),
        );
      },
    );
    client.on("error", reject);
    client.end();
  });
}

describe("the service listener", () => {
  it("passes a replica's 503 SOURCE_UNAVAILABLE on unchanged, asks no other replica, and keeps sending that replica requests", async () => {
    // Two vehicles never seen (so one of them reaches A, whichever replica nginx picks first),
    // then vehicles held, all within fail_timeout of A's 503.
    const asked = [
      paths.compliance("NEW0"),
      paths.compliance("NEW1"),
      paths.compliance("HELD2"),
      paths.compliance("HELD3"),
      paths.compliance("HELD4"),
      paths.compliance("HELD5"),
    ];
    const answers: Answer[] = [];
    for (const path of asked) answers.push(await get(path));

    // Each request reached one replica, once: none was tried again elsewhere.
    expect(seen.map((s) => s.path)).toEqual(asked);
    // Each answer is that replica's own, A's 503 with its words and Retry-After.
    seen.forEach(({ replica, path }, at) => {
      const answer = answers[at]!;
      if (replica === "A" && isNew(path)) {
        expect(answer.status).toBe(503);
        expect(answer.headers["retry-after"]).toBe(RETRY_AFTER);
        expect(answer.headers["content-type"]).toBe("application/problem+json");
        expect(JSON.parse(answer.body)).toEqual(REFUSAL);
      } else {
        expect(answer.status).toBe(200);
        expect(JSON.parse(answer.body)).toEqual({ replica });
      }
    });
    // A answered a 503, and was still sent requests after it: not taken out for fail_timeout.
    const refused = seen.findIndex((s) => s.replica === "A" && isNew(s.path));
    expect(refused).toBeGreaterThanOrEqual(0);
    const afterwards = seen.slice(refused + 1).filter((s) => s.replica === "A");
    expect(afterwards.length).toBeGreaterThan(0);
  });
});
