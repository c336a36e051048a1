// The live registers' state for the admins' sources page (docs/sources.md): on or off, where
// each calls, its last success and last error in words, today's requests against its quota,
// and how many held facts are stale. For a key on the internal plan only (the proxy's).
import { addDays, LIVE_SOURCES, ukDate } from "@vics/shared";
import {
  REGISTERS_REFRESH_PATH,
  type RegisterRefreshQueued,
  REGISTERS_PATH,
  type RegisterStatus,
  type Registers,
} from "@vics/shared/registers-admin";
import { parseRegistration } from "@vics/shared";
import {
  limitBulkBody,
  readBulkBody,
  requireJsonBody,
} from "@vics/server-kit/bulk-body";
import { ProblemError } from "@vics/server-kit/problem-error";
import type { Hono } from "hono";
import { z } from "zod";
import type { AppDeps } from "../app-deps.ts";
import type { AppEnv } from "../http/app-env.ts";
import { requireApiKey } from "../http/rate-limit.ts";
import { requireInternalKey } from "./data.ts";
import { leadingKind } from "../sources/refresher.ts";

/** The admin is warned this many days before a client secret expires. */
export const SECRET_WARNING_DAYS = 30;

export function registersRoute(app: Hono<AppEnv>, deps: AppDeps): void {
  app.get(REGISTERS_PATH, requireApiKey, requireInternalKey, async (c) => {
    const now = deps.now();
    const states = await deps.store.sourceStates();
    const running = deps.sources?.refresher.sources ?? [];
    const registers = await Promise.all(
      LIVE_SOURCES.map(async (name): Promise<RegisterStatus> => {
        const state = states.find((known) => known.source === name);
        const paced = running.find((one) => one.source.name === name);
        const lastError =
          state?.lastError &&
          state.lastErrorAt !== null &&
          (state.lastSuccessAt === null ||
            state.lastErrorAt > state.lastSuccessAt)
            ? { at: state.lastErrorAt, ...state.lastError }
            : null;
        const base = {
          source: name,
          lastSuccessAt: state?.lastSuccessAt ?? null,
          lastError,
        };
        if (!paced)
          return {
            ...base,
            on: false,
            baseUrl: null,
            requestsToday: null,
            staleFacts: null,
          };
        const olderThan = new Date(now.getTime() - paced.freshForMs);
        return {
          ...base,
          on: true,
          baseUrl: paced.source.baseUrl,
          // The limit store (Redis) down: the page that explains outages still answers.
          requestsToday: await paced.pacer.usedToday().catch(() => null),
          staleFacts: await deps.store.countStale(
            leadingKind(paced),
            olderThan.toISOString(),
          ),
          ...(paced.secretExpires !== undefined && {
            secretExpires: paced.secretExpires,
            secretExpiresSoon:
              addDays(ukDate(now), SECRET_WARNING_DAYS) >= paced.secretExpires,
          }),
        };
      }),
    );
    const answer: Registers = { registers };
    return c.json(answer);
  });
}

/** Queues the stale facts of up to a bulk check's vehicles, and answers at once. */
export function registersRefreshRoute(app: Hono<AppEnv>, deps: AppDeps): void {
  app.post(
    REGISTERS_REFRESH_PATH,
    requireApiKey,
    requireInternalKey,
    requireJsonBody,
    limitBulkBody,
    async (c) => {
      const { registrations } = await readBulkBody(c);
      const until = refreshHorizon(c.req.query("until"), deps.now());
      const valid: string[] = [];
      const invalid: string[] = [];
      for (const text of registrations) {
        const parsed = parseRegistration(text);
        if (parsed.ok) valid.push(parsed.registration);
        else invalid.push(text);
      }
      const refresher = deps.sources?.refresher;
      const counts = refresher
        ? await refresher.queue(valid, { until })
        : { queued: 0, fresh: 0 };
      const answer: RegisterRefreshQueued = {
        on: refresher !== undefined,
        ...counts,
        invalid,
      };
      return c.json(answer, 202);
    },
  );
}

/**
 * `until`: queue every fact that will be stale by then (the instant of the sweep the refresh
 * runs ahead of), not only those stale now; an instant with its offset, at most a day ahead.
 */
function refreshHorizon(text: string | undefined, now: Date): Date | undefined {
  if (text === undefined) return undefined;
  const at = z.iso.datetime({ offset: true }).safeParse(text);
  const until = at.success ? new Date(at.data) : undefined;
  if (!until || until.getTime() > now.getTime() + HORIZON_MOST_MS)
    throw new ProblemError(
      400,
      "MALFORMED_REQUEST",
      `until must be an instant with its offset within a day from now, such as ${new Date(now.getTime() + 7_200_000).toISOString()}, not "${text}".`,
    );
  return until;
}

const HORIZON_MOST_MS = 86_400_000;
