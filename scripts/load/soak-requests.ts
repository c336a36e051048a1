// What the soak sends: what staff and fleet managers send, spread over real vehicles. Six in ten
// insurance checks, three in ten compliance checks, one in ten bulk checks of 100 vehicles.
import type { Request } from "autocannon";
import { CLIENT_HEADER, PROXY_PREFIX, paths } from "@vics/shared";

const BULK_SIZE = 100;

/**
 * Every request carries the header the proxy asks of its clients, as the web app does; the soak
 * adds its signed-in user's session cookie (the stack's).
 */
export const SOAK_HEADERS = { [CLIENT_HEADER]: "soak" };

export function soakRequests(registrations: readonly string[]): Request[] {
  let turn = 0;
  const pick = () =>
    registrations[Math.floor(Math.random() * registrations.length)] ??
    "AB12CDE";
  return [
    {
      setupRequest(request) {
        turn += 1;
        const slot = turn % 10;
        if (slot === 0) {
          const start = Math.floor(
            Math.random() * (registrations.length - BULK_SIZE),
          );
          return {
            ...request,
            method: "POST",
            path: PROXY_PREFIX + paths.bulkInsurance(),
            headers: { ...request.headers, "content-type": "application/json" },
            body: JSON.stringify({
              registrations: registrations.slice(start, start + BULK_SIZE),
            }),
          };
        }
        const path =
          slot <= 6 ? paths.insurance(pick()) : paths.compliance(pick());
        return {
          ...request,
          method: "GET",
          path: PROXY_PREFIX + path,
          body: undefined,
        };
      },
    },
  ];
}
