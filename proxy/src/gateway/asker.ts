// Who is asking: the port through which the gateway knows the signed-in person (decision 064).
// The team's session middleware sets them on the context; the gateway reads only an Asker.
import type { Role } from "@vics/shared";

/** Who is asking: the signed-in person, as far as the gateway needs to know them. */
export interface Asker {
  readonly id: string;
  readonly role: Role;
}

/**
 * Who is signed in, as the team names them (team/http/app-env.ts adds its `user` to this
 * interface): one typing of the app's context for both, whose `user` must be at least an Asker,
 * without the gateway importing the team's user. The gateway's own typecheck
 * (tsconfig.gateway.json) compiles without that declaration, so there the user is only an Asker.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the team's declaration.
export interface SignedIn {}

export type SignedInUser = SignedIn extends { user: infer U extends Asker }
  ? U
  : Asker;
