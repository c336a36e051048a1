import type { ProxyStore } from "../proxy-store.ts";
import { sharedDeliveryQueries } from "./delivery-queries.ts";
import { linkQueries, sessionQueries } from "./session-queries.ts";
import type { KyselyStore } from "./spelling.ts";
import { userQueries } from "./user-queries.ts";
import { sharedWatchQueries } from "./watch-queries.ts";

/** Every query both engines share, on one engine's Kysely: each store spreads these first. */
export const kyselyQueries = (store: KyselyStore) =>
  ({
    ...userQueries(store),
    ...sessionQueries(store),
    ...linkQueries(store.db),
    ...sharedWatchQueries(store),
    ...sharedDeliveryQueries(store),
  }) satisfies Partial<ProxyStore>;
