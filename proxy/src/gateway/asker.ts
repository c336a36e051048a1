// Who is asking: the port through which the gateway knows the signed-in person (decision 064).
// The team's session middleware sets them on the context; the gateway reads only an Asker.
import type { Role } from "@vics/shared";

/** Who is asking: the signed-in person, as far as the gateway needs to know them. */
export interface Asker {
  readonly id: string;
  readonly role: Role;
}

/**
 * The types of who is signed in, named by the team (team/http/app-env.ts adds `user` and
 * `session` to this interface): one typing of the app's context for both, whose `user` must be
 * at least an Asker, without the gateway importing the team's user.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the team's declaration.
export interface SignedIn {}

export type SignedInUser = SignedIn extends { user: infer U extends Asker }
  ? U
  : Asker;
export type SignedInSession = SignedIn extends { session: infer S } ? S : never;
