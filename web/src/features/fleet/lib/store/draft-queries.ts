// The list being prepared, in the runs' database: one draft per slot (a user's), replaced as
// the user fixes rows, cleared when it becomes a run or they choose another list.
import type { IDBPDatabase } from "idb";
import type { StoredDraft } from "../fleet-types.ts";
import type { FleetRunsSchema } from "./run-store-schema.ts";

/** The slot of the draft kept before sign-in existed: nobody's. */
export const UNOWNED_DRAFT_SLOT = "current";

/** The slot of a user's draft. */
export const draftSlot = (ownerId: string) => `user:${ownerId}`;

export function draftQueries(db: IDBPDatabase<FleetRunsSchema>) {
  return {
    async saveDraft(
      draft: StoredDraft,
      slot = UNOWNED_DRAFT_SLOT,
    ): Promise<void> {
      await db.put("drafts", { id: slot, draft });
    },
    async loadDraft(
      slot = UNOWNED_DRAFT_SLOT,
    ): Promise<StoredDraft | undefined> {
      return (await db.get("drafts", slot))?.draft;
    },
    async clearDraft(slot = UNOWNED_DRAFT_SLOT): Promise<void> {
      await db.delete("drafts", slot);
    },
  };
}
