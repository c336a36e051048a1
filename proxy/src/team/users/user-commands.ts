import { formatUkDateTime } from "@vics/shared";
import {
  disableUser,
  enableUser,
  inviteUser,
  parseRole,
  sendReset,
  setRole,
  type AdminContext,
} from "./user-admin.ts";

export const USAGE = `Usage:
  scripts/users create --email <email> [--name <text>] [--role staff|fleet|admin | --admin]
  scripts/users list
  scripts/users role <email> <staff|fleet|admin>
  scripts/users disable <email>
  scripts/users enable <email>
  scripts/users reset <email>`;

export class UsageError extends Error {}

// The app's words for a moment ("1 December 2026 at 17:37"), so a link said here reads as there.
const when = (ms: number) => `${formatUkDateTime(ms)} (UK time)`;

/** One `scripts/users` command; what it prints goes to `print`, one line at a time. */
export async function userCommand(
  context: AdminContext,
  positionals: string[],
  options: { email?: string; name?: string; role?: string; admin?: boolean },
  print: (line: string) => void,
): Promise<void> {
  const [command, email, role] = positionals;
  const needEmail = () => {
    if (!email) throw new UsageError(`"${command}" needs the user's email.`);
    return email;
  };
  switch (command) {
    case "create": {
      if (!options.email) throw new UsageError('"create" needs --email.');
      if (options.admin && options.role && options.role !== "admin")
        throw new UsageError("Give --admin or --role, not both.");
      const made = await inviteUser(context, {
        email: options.email,
        name: options.name,
        role: options.admin ? "admin" : parseRole(options.role ?? "staff"),
      });
      print(`Created ${made.user.email} (${made.user.role}).`);
      print(
        `Send them this link to set their password; it works once, until ${when(made.expiresAt)}:`,
      );
      print(made.link);
      return;
    }
    case "list": {
      const users = await context.store.listUsers();
      if (users.length === 0)
        print(
          "No users yet. Create the first admin: scripts/users create --admin --email <email>",
        );
      for (const user of users) {
        const state = user.disabledAt
          ? "disabled"
          : user.passwordHash || user.oidcSubject
            ? "active"
            : "invited";
        print(
          [user.email, user.role, state, user.name].filter(Boolean).join("\t"),
        );
      }
      return;
    }
    case "role": {
      const user = await setRole(context, needEmail(), parseRole(role));
      print(`${user.email} is now ${user.role}.`);
      return;
    }
    case "disable": {
      const user = await disableUser(context, needEmail());
      print(`${user.email} is disabled; their sessions have ended.`);
      return;
    }
    case "enable": {
      const user = await enableUser(context, needEmail());
      print(`${user.email} can sign in again.`);
      return;
    }
    case "reset": {
      const made = await sendReset(context, needEmail());
      print(
        `Send ${made.user.email} this link to choose a new password; it works once, until ${when(made.expiresAt)}:`,
      );
      print(made.link);
      return;
    }
    default:
      throw new UsageError(
        command ? `Unknown command "${command}".` : "Missing command.",
      );
  }
}
