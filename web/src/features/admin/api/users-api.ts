// The proxy's user administration (admins only): the list, an invitation, a change of role or
// state, a password reset. Every answer is parsed with the shared contract; each write is a
// mutation that puts its answer in the cached list, or has the list read again.
import { queryOptions, type QueryClient } from "@tanstack/react-query";
import {
  AUTH_PATHS,
  AdminUserSchema,
  OneTimeLinkAnswerSchema,
  UserListSchema,
  type AdminUser,
  type Role,
} from "@vics/shared";
import { z } from "zod";
import {
  apiDelete,
  apiGet,
  apiPatch,
  apiPost,
} from "../../../lib/api-client.ts";
import { useRefreshingMutation } from "../../../lib/use-refreshing-mutation.ts";

export type OneTimeLink = z.infer<typeof OneTimeLinkAnswerSchema>;
export type UsersAnswer = z.infer<typeof UserListSchema>;

export function usersQueryOptions() {
  return queryOptions({
    queryKey: ["admin", "users"],
    queryFn: ({ signal }) =>
      apiGet(AUTH_PATHS.users, UserListSchema, { signal }),
    // Asked again each time the page opens: people change their own state elsewhere (an
    // invitation taken up, a first password set on the account page), and the list shows it.
    staleTime: 0,
  });
}

const userPath = (id: string) =>
  `${AUTH_PATHS.users}/${encodeURIComponent(id)}`;

function inviteUser(invite: {
  email: string;
  name: string;
  role: Role;
}): Promise<OneTimeLink> {
  return apiPost(AUTH_PATHS.users, invite, OneTimeLinkAnswerSchema);
}

export interface UserChange {
  role?: Role;
  disabled?: boolean;
}

async function changeUser(id: string, change: UserChange): Promise<AdminUser> {
  const answer = await apiPatch(
    userPath(id),
    change,
    z.object({ user: AdminUserSchema }),
  );
  return answer.user;
}

function resetUser(id: string): Promise<OneTimeLink> {
  return apiPost(`${userPath(id)}/reset`, undefined, OneTimeLinkAnswerSchema);
}

/**
 * Lets the user's next organisation sign-in with their email link to their account, though
 * it is in use (for 72 hours).
 */
async function allowOidcLink(id: string): Promise<AdminUser> {
  const answer = await apiPost(
    `${userPath(id)}/oidc-link`,
    undefined,
    z.object({ user: AdminUserSchema }),
  );
  return answer.user;
}

/** Undoes a user's organisation sign-in link (their sessions end). */
async function unlinkOidc(id: string): Promise<void> {
  await apiDelete(`${userPath(id)}/oidc-link`);
}

/** The list as the proxy now has it: `user` replaced, or added first when new. */
function keepUser(user: AdminUser, queryClient: QueryClient): void {
  queryClient.setQueryData(usersQueryOptions().queryKey, (old) => {
    if (!old) return old;
    const known = old.users.some((each) => each.id === user.id);
    return {
      users: known
        ? old.users.map((each) => (each.id === user.id ? user : each))
        : [user, ...old.users],
    };
  });
}

/** A link's answer carries its user: the list shows them at once. */
const keepLinkUser = (link: OneTimeLink, queryClient: QueryClient) =>
  keepUser(link.user, queryClient);

export const useInviteUserMutation = () =>
  useRefreshingMutation(inviteUser, keepLinkUser);

export const useChangeUserMutation = () =>
  useRefreshingMutation(
    ({ id, change }: { id: string; change: UserChange }) =>
      changeUser(id, change),
    keepUser,
  );

export const useResetUserMutation = () =>
  useRefreshingMutation(resetUser, keepLinkUser);

export const useAllowOidcLinkMutation = () =>
  useRefreshingMutation(allowOidcLink, keepUser);

/** The proxy's answer has no user, so the list is read again; pending until it has been. */
export const useUnlinkOidcMutation = () =>
  useRefreshingMutation(unlinkOidc, usersQueryOptions().queryKey);
