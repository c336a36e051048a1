import type { Logger } from "@vics/server-kit/logger";
import type { ProxyStore } from "../store/proxy-store.ts";
import { OidcSignIn, type OidcSettings } from "./oidc.ts";

/** What the routes need of OIDC: the button's words, and the provider once it has answered. */
export interface OidcProvider {
  readonly label: string;
  /** Undefined until the provider's discovery document has been read. */
  current(): OidcSignIn | undefined;
}

/** Waits between discovery attempts: doubling from `firstMs` up to `maxMs`. */
export interface DiscoveryRetry {
  firstMs: number;
  maxMs: number;
}

/** At most one warn line a minute while the provider stays down. */
export const DISCOVERY_RETRY: DiscoveryRetry = {
  firstMs: 1_000,
  maxMs: 60_000,
};

/**
 * The identity provider, reached in the background: a proxy that starts while the provider is
 * down keeps serving (with passwords only if LOCAL_SIGN_IN allows them, never because OIDC is
 * down) and tries discovery again with backoff until the provider answers.
 */
export function connectOidc(
  settings: OidcSettings,
  store: ProxyStore,
  publicOrigin: string,
  options: { logger: Logger; retry?: DiscoveryRetry },
): OidcProvider & { ready: Promise<OidcSignIn>; stop(): void } {
  const { logger, retry = DISCOVERY_RETRY } = options;
  let found: OidcSignIn | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let attempts = 0;
  let delay = retry.firstMs;
  let reached: (signIn: OidcSignIn) => void = () => {};
  const ready = new Promise<OidcSignIn>((resolve) => (reached = resolve));

  const attempt = async () => {
    attempts++;
    try {
      found = await OidcSignIn.discover(settings, store, publicOrigin);
      logger.info("the identity provider answered", {
        issuer: settings.issuer,
        attempts,
      });
      reached(found);
    } catch (error) {
      if (stopped) return;
      logger.warn(
        "the identity provider cannot be reached; sign-in with it waits until it answers",
        {
          issuer: settings.issuer,
          error: error instanceof Error ? error.message : String(error),
          attempts,
          retryInSeconds: Math.ceil(delay / 1000),
        },
      );
      timer = setTimeout(() => void attempt(), delay);
      timer.unref();
      delay = Math.min(delay * 2, retry.maxMs);
    }
  };
  void attempt();

  return {
    label: settings.label,
    current: () => found,
    ready,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
