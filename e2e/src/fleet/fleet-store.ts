// What a fleet run has saved in the browser (IndexedDB), read from the page under test.
import { expect, type Page } from "@playwright/test";
import type { FleetPage } from "../pages/fleet-page.ts";

/** The registrations whose answers the run has saved in the browser (IndexedDB) by now. */
export function savedRegistrations(
  page: Page,
  runId: string,
): Promise<string[]> {
  return page.evaluate(async (id) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open("vics-fleet");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    // Schema 3 saves a record per batch; "answered" holds each batch's registrations.
    const batches = await new Promise<Array<{ registrations: string[] }>>(
      (resolve, reject) => {
        const request = db
          .transaction("answered")
          .objectStore("answered")
          .getAll(IDBKeyRange.bound([id], [id, []]));
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      },
    );
    db.close();
    return [...new Set(batches.flatMap((batch) => batch.registrations))];
  }, runId);
}

/** Starts the run the review shows, then waits until it has saved `atLeast` answers; its id. */
export async function startRunUntilSaved(
  fleet: FleetPage,
  atLeast: number,
): Promise<string> {
  await fleet.startButton.click();
  await expect(fleet.page).toHaveURL(/\/fleet\/runs\/\w+$/);
  const runId = fleet.page.url().split("/").at(-1) ?? "";
  await expect
    .poll(async () => (await savedRegistrations(fleet.page, runId)).length, {
      timeout: 30_000,
    })
    .toBeGreaterThanOrEqual(atLeast);
  return runId;
}
