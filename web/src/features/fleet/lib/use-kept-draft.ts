// The list being prepared, kept in the browser as it changes (a moment after each change), so a
// reload or a closed tab during "Check your list" loses neither the upload nor the fixes.
import { useEffect, useRef, useState } from "react";
import { useFleetServices } from "./fleet-services.ts";
import type { ListDraft } from "./list-draft.ts";

const SAVE_AFTER_MS = 400;

export interface KeptDraft {
  draft: ListDraft | undefined;
  /** True when the draft on show was brought back from before a reload. */
  restored: boolean;
  setDraft: (draft: ListDraft | undefined) => void;
}

export function useKeptDraft(): KeptDraft {
  const { openStore } = useFleetServices();
  const [draft, setDraftState] = useState<ListDraft>();
  const [restored, setRestored] = useState(false);
  const touched = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    let live = true;
    void openStore()
      .then(({ store }) => store.loadDraft())
      .then((kept) => {
        // The user may have pasted or uploaded already: what they did wins.
        if (!live || !kept || touched.current) return;
        setDraftState(kept);
        setRestored(true);
      })
      .catch(() => undefined); // nothing kept to bring back
    return () => {
      live = false;
    };
  }, [openStore]);

  useEffect(() => () => clearTimeout(timer.current), []);

  function setDraft(next: ListDraft | undefined) {
    touched.current = true;
    setDraftState(next);
    setRestored(false);
    clearTimeout(timer.current);
    timer.current = setTimeout(
      () => {
        void openStore()
          .then(({ store }) =>
            next ? store.saveDraft(next) : store.clearDraft(),
          )
          .catch(() => undefined); // not kept: the page still works, a reload would lose it
      },
      next ? SAVE_AFTER_MS : 0,
    );
  }

  return { draft, restored, setDraft };
}
