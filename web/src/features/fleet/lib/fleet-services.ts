// What the fleet page works with: where runs are saved, how it reaches the vehicle service, and
// where lists are parsed. The browser gets the real ones; tests give a store on fake IndexedDB,
// the in-thread parser and quick retries, and nothing else changes.
import { createContext, useContext, useMemo } from "react";
import { useSessionUser } from "../../../lib/session-user.ts";
import type { FleetClient, RunTuning } from "@vics/fleet";
import { apiFleetClient } from "../api/fleet-client.ts";
import {
  moduleParseWorker,
  type ParseWorkerFactory,
} from "./parse/parse-client.ts";
import { memoryRunStore } from "./store/memory-run-store.ts";
import { ownedRunStore } from "./store/owned-run-store.ts";
import {
  openRunStore,
  RunStoreUnavailableError,
  type RunStore,
} from "./store/run-store.ts";

export interface OpenedStore {
  store: RunStore;
  /** Set when runs live in this page only (the browser stores nothing): say so. */
  warning?: string;
}

export interface FleetServices {
  /** Opens the run store, once per page load. */
  openStore: () => Promise<OpenedStore>;
  client: FleetClient;
  parseWorker: ParseWorkerFactory;
  tuning?: Partial<RunTuning>;
}

let opened: Promise<OpenedStore> | undefined;

/** IndexedDB; where the browser refuses it, memory, with the reason as a warning. */
async function openBrowserStore(): Promise<OpenedStore> {
  try {
    return { store: await openRunStore() };
  } catch (error) {
    if (!(error instanceof RunStoreUnavailableError)) throw error;
    return { store: memoryRunStore(), warning: error.message };
  }
}

export const browserFleetServices: FleetServices = {
  openStore: () => (opened ??= openBrowserStore()),
  client: apiFleetClient,
  parseWorker: moduleParseWorker,
};

export const FleetServicesContext =
  createContext<FleetServices>(browserFleetServices);

/**
 * The services as the signed-in user sees them: their own runs and list only. Nobody signed in
 * (a part shown alone) sees none.
 */
export function useFleetServices(): FleetServices {
  const services = useContext(FleetServicesContext);
  const ownerId = useSessionUser()?.id ?? "";
  return useMemo(() => ownedServices(services, ownerId), [services, ownerId]);
}

export function ownedServices(
  services: FleetServices,
  ownerId: string,
): FleetServices {
  return {
    ...services,
    openStore: async () => {
      const opened = await services.openStore();
      return { ...opened, store: ownedRunStore(opened.store, ownerId) };
    },
  };
}
