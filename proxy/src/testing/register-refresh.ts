// What the refresh's tests share: many well-formed plates, and the refresh call to a real
// service app as the proxy makes it, noting what each request carried.
import type { TestService } from "@vics/service/testing";
import type { FleetVehicle } from "@vics/shared";
import { sendWithFetch } from "../gateway/upstream/upstream-call.ts";
import {
  registerRefreshCall,
  type RefreshCall,
} from "../team/watch/register-refresh.ts";

const LETTERS = "ABCDEFGHJKLMNPRSTUVWXYZ";

/** `count` distinct well-formed plates (up to 12,167): AB12 and three letters. */
export function plates(count: number, prefix = "AB12"): string[] {
  const letter = (i: number) => LETTERS[Math.floor(i) % LETTERS.length]!;
  return Array.from(
    { length: count },
    (_, n) =>
      `${prefix}${letter(n / LETTERS.length ** 2)}${letter(n / LETTERS.length)}${letter(n)}`,
  );
}

export const vehicles = (registrations: string[]): FleetVehicle[] =>
  registrations.map((registration) => ({ registration, cells: [] }));

export interface Sent {
  key: string | null;
  /** The slice's X-Request-Id: the service's log lines for it carry it. */
  requestId: string | null;
  /** The query's `until`: the instant the facts are to be fresh until. */
  until: string | null;
  registrations: string[];
}

export function refreshThrough(
  service: TestService,
  key: string,
  sent: Sent[],
): RefreshCall {
  return registerRefreshCall({
    send: sendWithFetch(async (input, init) => {
      const request = new Request(input, init);
      sent.push({
        key: request.headers.get("X-API-Key"),
        requestId: request.headers.get("X-Request-Id"),
        until: new URL(request.url).searchParams.get("until"),
        registrations: (
          (await request.clone().json()) as { registrations: string[] }
        ).registrations,
      });
      return service.app.fetch(request);
    }),
    upstreamUrl: "http://service.internal/",
    apiKey: key,
    timeoutMs: 5_000,
  });
}
