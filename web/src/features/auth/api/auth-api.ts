// The sign-in routes of the proxy (docs/api.md, "Staff sign-in"), each answer parsed with the
// shared contract. Loaded with the sign-in pages only: their schemas bring zod.
import {
  useMutation,
  useQueryClient,
  type QueryClient,
} from "@tanstack/react-query";
import {
  AUTH_PATHS,
  SessionSchema,
  OidcLinkAnswerSchema,
  SignOutAnswerSchema,
  isApiError,
  type SessionAnswer,
} from "@vics/shared";
import { apiDelete, apiPost, apiSend } from "../../../lib/api-client.ts";
import { useRefreshingMutation } from "../../../lib/use-refreshing-mutation.ts";
import type { WriteCallbacks } from "../../../lib/write-callbacks.ts";
import { sessionQueryOptions, useSessionMutation } from "./session-query.ts";
import { isBusy } from "../lib/sign-in-errors.ts";
import { safeRedirect } from "../lib/return-to.ts";

export { methodsQueryOptions } from "../../../lib/sign-in-methods.ts";

/**
 * Sends `send` again, once, after a refusal only because the proxy is hashing other people's
 * passwords at this moment (429 with a Retry-After of a second or two: it caps the hashes in
 * flight), so a colleague signing in at the same moment shows nobody an error.
 */
async function onceMoreIfBusy<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    if (!isBusy(error)) throw error;
    await new Promise((done) =>
      setTimeout(done, error.retryAfterSeconds * 1000),
    );
    return send();
  }
}

export function signIn(
  email: string,
  password: string,
): Promise<SessionAnswer> {
  return onceMoreIfBusy(() =>
    apiPost(AUTH_PATHS.signIn, { email, password }, SessionSchema),
  );
}

export function signInWithLink(token: string): Promise<SessionAnswer> {
  return apiPost(AUTH_PATHS.useSignInLink, { token }, SessionSchema);
}

export function setPassword(
  token: string,
  password: string,
): Promise<SessionAnswer> {
  return apiPost(AUTH_PATHS.setPassword, { token, password }, SessionSchema);
}

export function changePassword(
  currentPassword: string,
  newPassword: string,
): Promise<void> {
  return onceMoreIfBusy(() =>
    apiSend(AUTH_PATHS.changePassword, { currentPassword, newPassword }),
  );
}

/**
 * Sets the first password of an account that has none (signed in by a one-time link); resolves
 * to the new session, which now has a password.
 */
function setFirstPassword(newPassword: string): Promise<SessionAnswer> {
  return onceMoreIfBusy(() =>
    apiPost(AUTH_PATHS.firstPassword, { newPassword }, SessionSchema),
  );
}

/**
 * Signs this browser out (or every session of the user, this one included) and forgets every
 * cached answer; resolves to where the browser goes next.
 */
export async function signOut(
  queryClient: QueryClient,
  everywhere: boolean,
): Promise<string> {
  let next = "/sign-in";
  if (everywhere) await apiSend(AUTH_PATHS.signOutEverywhere);
  else {
    const answer = await apiPost(
      AUTH_PATHS.signOut,
      undefined,
      SignOutAnswerSchema,
    );
    next = safeRedirect(answer.redirectTo);
  }
  queryClient.clear();
  return next;
}

/** The provider's sign-in: a navigation, not a fetch, coming back to `returnTo`. */
export function oidcStartUrl(returnTo: string): string {
  return `${AUTH_PATHS.oidcStart}?${new URLSearchParams({ returnTo }).toString()}`;
}

/**
 * Starts linking the signed-in user's organisation sign-in: resolves to the provider's page,
 * which comes back to the account page (`?oidc-link=linked`, or the reason it was refused).
 */
async function startOidcLink(): Promise<string> {
  const answer = await apiPost(
    AUTH_PATHS.oidcLink,
    undefined,
    OidcLinkAnswerSchema,
  );
  return safeRedirect(answer.redirectTo);
}

/** Undoes the signed-in user's own organisation sign-in link. */
function unlinkOidc(): Promise<void> {
  return apiDelete(AUTH_PATHS.oidcLink);
}

/**
 * The first password: once set, the new session. Refused as the account has a password now or
 * signs in through its organisation (409): the session, asked again, shows the page that fits.
 */
export function useFirstPasswordMutation(
  callbacks: WriteCallbacks<SessionAnswer, string> = {},
) {
  const queryClient = useQueryClient();
  return useSessionMutation(setFirstPassword, {
    ...callbacks,
    onError: (error, password) => {
      if (isApiError(error) && error.code === "CONFLICT")
        void queryClient.invalidateQueries({
          queryKey: sessionQueryOptions().queryKey,
        });
      callbacks.onError?.(error, password);
    },
  });
}

export function useChangePasswordMutation() {
  return useMutation({
    mutationFn: ({
      current,
      password,
    }: {
      current: string;
      password: string;
    }) => changePassword(current, password),
  });
}

/** Resolves to the provider's page; the caller goes there. */
export function useStartOidcLinkMutation() {
  return useMutation({ mutationFn: startOidcLink });
}

/** The session, asked again, no longer has the link; pending until it has been. */
export function useUnlinkOidcMutation() {
  return useRefreshingMutation(unlinkOidc, sessionQueryOptions().queryKey);
}
