// The list being prepared, kept in the browser as it changes (a moment after each change), so a
// reload or a closed tab during "Check your list" loses neither the upload nor the fixes.
// Until the kept list is known the page shows neither step: a form shown then replaced by the
// kept list would drop a file chosen in that moment
// (docs/decisions/025-fleet-review-step.md).
import { useEffect, useRef, useState } from "react";
import { useFleetServices } from "./fleet-services.ts";
import type { ListDraft } from "./list-draft.ts";

const SAVE_AFTER_MS = 400;
/** A store that does not answer (e.g. blocked by another tab) must not hide the form for long. */
const GIVE_UP_AFTER_MS = 3000;

export interface KeptDraft {
  draft: ListDraft | undefined;
  /** True while the kept draft is being looked for: show neither the form nor the review. */
  loading: boolean;
  /** True when the draft on show was brought back from before a reload. */
  restored: boolean;
  setDraft: (draft: ListDraft | undefined) => void;
}

export function useKeptDraft(): KeptDraft {
  const { openStore } = useFleetServices();
  const [draft, setDraftState] = useState<ListDraft>();
  const [loading, setLoading] = useState(true);
  const [restored, setRestored] = useState(false);
  // Once a step is on show, what the user does there wins over a kept list arriving late.
  const settled = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    let live = true;
    const settle = (kept?: ListDraft) => {
      if (!live || settled.current) return;
      settled.current = true;
      if (kept) {
        setDraftState(kept);
        setRestored(true);
      }
      setLoading(false);
    };
    const giveUp = setTimeout(() => settle(), GIVE_UP_AFTER_MS);
    void openStore()
      .then(({ store }) => store.loadDraft())
      .then(settle)
      .catch(() => settle()); // nothing kept to bring back
    return () => {
      live = false;
      clearTimeout(giveUp);
    };
  }, [openStore]);

  useEffect(() => () => clearTimeout(timer.current), []);

  function setDraft(next: ListDraft | undefined) {
    settled.current = true;
    setLoading(false);
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

  return { draft, loading, restored, setDraft };
}
