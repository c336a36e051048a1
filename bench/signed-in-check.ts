// What sign-in adds to each check the proxy forwards, for `npm run bench`: the session read from
// its cookie's id (Sessions.read: the session and its user, a touch once a minute) and the audit
// event appended and committed (appendAudit), as the proxy does before each answer. Measured in
// this process with the proxy's own modules, on a file-backed store opened as the proxy opens it
// (WAL, synchronous FULL), since sign-in cannot be turned off in the proxy to measure it without.
// Three rounds; in each, `checks` session reads, then `checks` audit appends, each part's CPU
// time per call (user + system, as /proc counts the proxy's), and the append's p50 wall time
// (which holds the wait for the disk's sync: node:sqlite is synchronous, so the proxy's one
// thread waits with it). A check's cost is a round's two parts together. Each figure is the
// median round's, with the fastest and the slowest round. Not in it: the cookie's parsing, the
// per-user limit's count and the event's fields taken from the request, a few µs at most.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import {
  DEFAULT_SESSION_TIMES,
  Sessions,
} from "../proxy/src/team/auth/sessions.ts";
import { openSqliteProxyStore } from "../proxy/src/team/store/sqlite/sqlite-proxy-store.ts";
import { percentile } from "./percentile.ts";
import type { Recorder } from "./recorder.ts";
import { overRounds, type RoundFigure } from "./rounds.ts";

export const SIGNED_IN_CHECKS = 1_000;
const ROUNDS = 3;
/** Untimed: the JIT and SQLite's page cache warm up on them. */
const WARM_UP_CHECKS = 200;

export interface SignedInCheckFigures {
  /** Session read and audit append together: what sign-in costs a check in CPU. */
  cpuUsPerCheck: RoundFigure;
  sessionReadCpuUs: RoundFigure;
  auditAppendCpuUs: RoundFigure;
  /** Wall time of one audit append, sync to disk included. */
  auditAppendP50Us: RoundFigure;
}

/** Runs `work` `times` times; its CPU µs per call and each call's wall time in µs. */
async function timed(
  times: number,
  work: () => Promise<void>,
): Promise<{ cpuUs: number; wallUs: number[] }> {
  const wallUs: number[] = [];
  const before = process.cpuUsage();
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await work();
    wallUs.push((performance.now() - started) * 1000);
  }
  const cpu = process.cpuUsage(before);
  return { cpuUs: (cpu.user + cpu.system) / times, wallUs };
}

export async function signedInCheckFigures(
  dataDir: string,
  /** Registrations the audited checks ask about, one each in turn. */
  registrations: readonly string[],
  checks = SIGNED_IN_CHECKS,
): Promise<SignedInCheckFigures> {
  if (registrations.length === 0) throw new Error("no registrations to check");
  const store = openSqliteProxyStore({
    path: join(dataDir, "signed-in-check.sqlite"),
    auditRetentionDays: 400,
  });
  try {
    const sessions = new Sessions(store, Date.now, DEFAULT_SESSION_TIMES);
    const user = await store.createUser(
      { email: "bench-signed-in@example.org", name: "Bench", role: "fleet" },
      new Date(),
    );
    const sessionId = await sessions.start(user);
    let turn = 0;
    // What the proxy does for a signed-in check besides forwarding it (session-middleware.ts,
    // audit-log.ts).
    const readSession = async () => {
      if (!(await sessions.read(sessionId)))
        throw new Error("the bench's session was not found");
    };
    const appendAudit = async () => {
      await store.appendAudit({
        at: Date.now(),
        userId: user.id,
        userEmail: user.email,
        action: "check.insurance",
        registrations: [registrations[turn++ % registrations.length]!],
        outcome: "200",
        requestId: randomUUID(),
        clientAddress: "127.0.0.1",
      });
    };
    for (let i = 0; i < WARM_UP_CHECKS; i++) {
      await readSession();
      await appendAudit();
    }
    const reads: number[] = [];
    const appends: number[] = [];
    const appendP50s: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      reads.push((await timed(checks, readSession)).cpuUs);
      const append = await timed(checks, appendAudit);
      appends.push(append.cpuUs);
      appendP50s.push(percentile(append.wallUs, 50));
    }
    return {
      cpuUsPerCheck: overRounds(reads.map((read, i) => read + appends[i]!)),
      sessionReadCpuUs: overRounds(reads),
      auditAppendCpuUs: overRounds(appends),
      auditAppendP50Us: overRounds(appendP50s),
    };
  } finally {
    await store.close();
  }
}

export const SIGNED_IN_KEYS = [
  "signed_in_check_cpu_us",
  "signed_in_check_cpu_fastest_round_us",
  "signed_in_check_cpu_slowest_round_us",
  "session_read_cpu_us",
  "audit_append_cpu_us",
  "audit_append_p50_us",
];

/** The figures above as a scenario of the bench's run, said as they come. */
export async function signedInScenario(
  dataDir: string,
  registrations: readonly string[],
  recorder: Recorder,
): Promise<void> {
  const { figures, say } = recorder;
  await recorder.scenario(
    SIGNED_IN_KEYS,
    async () => {
      const signedIn = await signedInCheckFigures(dataDir, registrations);
      figures.signed_in_check_cpu_us = signedIn.cpuUsPerCheck.median;
      figures.signed_in_check_cpu_fastest_round_us =
        signedIn.cpuUsPerCheck.fastest;
      figures.signed_in_check_cpu_slowest_round_us =
        signedIn.cpuUsPerCheck.slowest;
      figures.session_read_cpu_us = signedIn.sessionReadCpuUs.median;
      figures.audit_append_cpu_us = signedIn.auditAppendCpuUs.median;
      figures.audit_append_p50_us = signedIn.auditAppendP50Us.median;
      say(
        `  ${Math.round(signedIn.cpuUsPerCheck.median)} µs CPU per check (rounds ${Math.round(signedIn.cpuUsPerCheck.fastest)}-${Math.round(signedIn.cpuUsPerCheck.slowest)}): session read ${Math.round(signedIn.sessionReadCpuUs.median)}, audit append ${Math.round(signedIn.auditAppendCpuUs.median)}; an append takes ${Math.round(signedIn.auditAppendP50Us.median)} µs (p50, sync included)`,
      );
    },
    "the signed-in part of a check, in process",
  );
}
