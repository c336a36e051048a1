// The account page's organisation sign-in: link it (the provider's round trip, started here
// while signed in), or undo the link, when the proxy offers OIDC at all (issue 33: an account
// in use is never linked by its email alone).
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "react-router";
import { isApiError, type SessionUser } from "@vics/shared";
import { BusyButton } from "../../../components/busy-button.tsx";
import { browserNavigation } from "../../../lib/browser-navigation.ts";
import {
  methodsQueryOptions,
  useStartOidcLinkMutation,
  useUnlinkOidcMutation,
} from "../api/auth-api.ts";
import { oidcLinkOutcome } from "../lib/oidc-link-words.ts";

export function OidcLinkSection({ user }: { user: SessionUser }) {
  const methods = useQuery(methodsQueryOptions());
  const [params] = useSearchParams();
  const starting = useStartOidcLinkMutation();
  const unlinking = useUnlinkOidcMutation();
  // Starting stays busy once it has worked: the browser is on its way to the provider.
  const busy = starting.isPending || starting.isSuccess || unlinking.isPending;
  const [problem, setProblem] = useState<string>();
  const outcome = oidcLinkOutcome(params.get("oidc-link"));
  const oidc = methods.data?.oidc;
  if (!oidc) return null;

  async function act(action: () => Promise<void>) {
    if (busy) return;
    setProblem(undefined);
    try {
      await action();
    } catch (error) {
      setProblem(
        isApiError(error) && error.status !== 0
          ? error.detail
          : "VICS could not be reached. Try again.",
      );
    }
  }

  const link = () =>
    act(async () => browserNavigation.assign(await starting.mutateAsync()));
  const unlink = () => act(() => unlinking.mutateAsync());

  return (
    <section aria-labelledby="oidc-link-heading">
      <h2 id="oidc-link-heading" className="heading-m">
        Organisation sign-in
      </h2>
      {outcome && (
        <div
          className={`notice${outcome.linked ? " notice--success" : ""}`}
          role={outcome.linked ? "status" : "alert"}
        >
          <p>{outcome.words}</p>
        </div>
      )}
      {problem && (
        <div className="notice" role="alert">
          <p>{problem}</p>
        </div>
      )}
      {user.hasOidcLink ? (
        <>
          <p>Your organisation sign-in ({oidc.label}) is linked to VICS.</p>
          {/* Without passwords (LOCAL_SIGN_IN=false) the link is the only way in: it stays. */}
          {user.hasPassword && methods.data?.local && (
            <BusyButton
              busy={busy}
              busyLabel="Unlinking…"
              secondary
              onClick={() => void unlink()}
            >
              Unlink my organisation sign-in
            </BusyButton>
          )}
        </>
      ) : (
        <>
          <p>
            Link your organisation sign-in to sign in to VICS with it: you go to
            your organisation’s page, sign in there, and come back here.
          </p>
          <BusyButton
            busy={busy}
            busyLabel="Going to your organisation…"
            secondary
            onClick={() => void link()}
          >
            Link my organisation sign-in
          </BusyButton>
        </>
      )}
    </section>
  );
}
