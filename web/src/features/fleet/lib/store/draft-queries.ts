// The list being prepared, in the runs' database: one draft at a time, replaced as the user
// fixes rows, cleared when it becomes a run or they choose another list.
import type { IDBPDatabase } from "idb";
import type { StoredDraft } from "../fleet-types.ts";
import type { FleetRunsSchema } from "./run-store-schema.ts";

const KEY = "current";

export function draftQueries(db: IDBPDatabase<FleetRunsSchema>) {
  return {
    async saveDraft(draft: StoredDraft): Promise<void> {
      await db.put("drafts", { id: KEY, draft });
    },
    async loadDraft(): Promise<StoredDraft | undefined> {
      return (await db.get("drafts", KEY))?.draft;
    },
    async clearDraft(): Promise<void> {
      await db.delete("drafts", KEY);
    },
  };
}
