// What a fleet run has saved in the browser (IndexedDB), read from the page under test.
import type { Page } from "@playwright/test";

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
