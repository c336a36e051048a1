// The proxy's user administration (admins only): the list, an invitation, a change of role or
// state, a password reset. Every answer is parsed with the shared contract.
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

export type OneTimeLink = z.infer<typeof OneTimeLinkAnswerSchema>;
export type UsersAnswer = z.infer<typeof UserListSchema>;

const USERS_KEY = ["admin", "users"] as const;

export function usersQueryOptions() {
  return queryOptions({
    queryKey: USERS_KEY,
    queryFn: ({ signal }) =>
      apiGet(AUTH_PATHS.users, UserListSchema, { signal }),
    // Asked again each time the page opens: people change their own state elsewhere (an
    // invitation taken up, a first password set on the account page), and the list shows it.
    staleTime: 0,
  });
}

const userPath = (id: string) =>
  `${AUTH_PATHS.users}/${encodeURIComponent(id)}`;

export function inviteUser(invite: {
  email: string;
  name: string;
  role: Role;
}): Promise<OneTimeLink> {
  return apiPost(AUTH_PATHS.users, invite, OneTimeLinkAnswerSchema);
}

export async function changeUser(
  id: string,
  change: { role?: Role; disabled?: boolean },
): Promise<AdminUser> {
  const answer = await apiPatch(
    userPath(id),
    change,
    z.object({ user: AdminUserSchema }),
  );
  return answer.user;
}

export function resetUser(id: string): Promise<OneTimeLink> {
  return apiPost(`${userPath(id)}/reset`, undefined, OneTimeLinkAnswerSchema);
}

/**
 * Lets the user's next organisation sign-in with their email link to their account, though
 * it is in use (for 72 hours).
 */
export async function allowOidcLink(id: string): Promise<AdminUser> {
  const answer = await apiPost(
    `${userPath(id)}/oidc-link`,
    undefined,
    z.object({ user: AdminUserSchema }),
  );
  return answer.user;
}

/** Undoes a user's organisation sign-in link (their sessions end); the list is read again. */
export async function unlinkOidc(
  queryClient: QueryClient,
  id: string,
): Promise<void> {
  await apiDelete(`${userPath(id)}/oidc-link`);
  await queryClient.invalidateQueries(usersQueryOptions());
}

/** The list as the proxy now has it: `user` replaced, or added first when new. */
export function keepUser(queryClient: QueryClient, user: AdminUser): void {
  queryClient.setQueryData<UsersAnswer>(USERS_KEY, (old) => {
    if (!old) return old;
    const known = old.users.some((each) => each.id === user.id);
    return {
      users: known
        ? old.users.map((each) => (each.id === user.id ? user : each))
        : [user, ...old.users],
    };
  });
}
