// The run store for a component, once it is open; or why it cannot be (no IndexedDB).
import { useEffect, useState } from "react";
import type { RunStore } from "./store/run-store.ts";
import { useFleetServices } from "./fleet-services.ts";

export type RunStoreState =
  | { status: "opening" }
  | { status: "open"; store: RunStore; warning?: string }
  | { status: "unavailable"; message: string };

export function useRunStore(): RunStoreState {
  const { openStore } = useFleetServices();
  const [state, setState] = useState<RunStoreState>({ status: "opening" });
  useEffect(() => {
    let live = true;
    openStore().then(
      ({ store, warning }) =>
        live && setState({ status: "open", store, warning }),
      (error: unknown) =>
        live &&
        setState({
          status: "unavailable",
          message:
            error instanceof Error
              ? error.message
              : "Runs cannot be saved in this browser.",
        }),
    );
    return () => {
      live = false;
    };
  }, [openStore]);
  return state;
}
