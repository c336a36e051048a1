// "/admin/users" (admins): everyone who can sign in, with their role, state and way of signing
// in; inviting someone, changing a role, disabling or enabling, sending a password reset. A
// one-time link is shown once, on this page only, for the admin to pass on.
import { useEffect, useRef, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { AdminUser } from "@vics/shared";
import { DocumentTitle } from "../../../components/document-title.tsx";
import { ROLE_NAMES } from "../../../lib/roles.ts";
import { useSessionUser } from "../../../lib/session-user.ts";
import { methodsQueryOptions } from "../../../lib/sign-in-methods.ts";
import {
  useAllowOidcLinkMutation,
  useChangeUserMutation,
  useResetUserMutation,
  useUnlinkOidcMutation,
  usersQueryOptions,
  type OneTimeLink,
} from "../api/users-api.ts";
import { adminProblemWords } from "../lib/admin-problems.ts";
import { InviteForm } from "./invite-form.tsx";
import { OneTimeLinkNotice } from "./one-time-link.tsx";
import { UserRow, type UserAction } from "./user-row.tsx";
import "../admin.css";
import { QueryView } from "./query-view.tsx";

type Shown =
  | { kind: "link"; link: OneTimeLink; purpose: "invitation" | "reset" }
  | { kind: "done"; words: string }
  | { kind: "problem"; words: string };

function doneWords(user: AdminUser, action: UserAction): string {
  const who = user.name || user.email;
  switch (action.kind) {
    case "role":
      return `${who}’s role is now ${ROLE_NAMES[user.role]}.`;
    case "disable":
      return `${who} is disabled: their sessions have ended.`;
    case "unlink":
      return `${who}’s organisation sign-in is unlinked: their sessions have ended.`;
    case "allow-link":
      return `${who}’s next organisation sign-in within 72 hours, with their email address, links to their account.`;
    case "withdraw-link":
      return `${who}’s organisation sign-in can no longer link by email.`;
    default:
      return `${who} is enabled: they can sign in again.`;
  }
}

export function UsersPage() {
  const me = useSessionUser();
  const users = useQuery(usersQueryOptions());
  const methods = useQuery(methodsQueryOptions());
  const oidcOn = methods.data?.oidc != null;
  const [shown, setShown] = useState<Shown>();
  const allowLink = useAllowOidcLinkMutation();
  const unlink = useUnlinkOidcMutation();
  const reset = useResetUserMutation();
  const change = useChangeUserMutation();
  // One action at a time, whichever row asked.
  const busy = [allowLink, unlink, reset, change].some(
    (mutation) => mutation.isPending,
  );
  const notice = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (shown && shown.kind !== "link") notice.current?.focus();
  }, [shown]);

  async function onAction(
    user: AdminUser,
    action: UserAction,
  ): Promise<boolean> {
    try {
      if (action.kind === "allow-link") {
        await allowLink.mutateAsync(user.id);
        setShown({ kind: "done", words: doneWords(user, action) });
      } else if (action.kind === "unlink" || action.kind === "withdraw-link") {
        await unlink.mutateAsync(user.id);
        setShown({ kind: "done", words: doneWords(user, action) });
      } else if (action.kind === "reset") {
        const link = await reset.mutateAsync(user.id);
        setShown({ kind: "link", link, purpose: "reset" });
      } else {
        const changed = await change.mutateAsync({
          id: user.id,
          change:
            action.kind === "role"
              ? { role: action.role }
              : { disabled: action.kind === "disable" },
        });
        setShown({ kind: "done", words: doneWords(changed, action) });
      }
      return true;
    } catch (error) {
      setShown({ kind: "problem", words: adminProblemWords(error, me?.role) });
      return false;
    }
  }

  return (
    <div className="admin-users">
      <DocumentTitle title="Users" />
      <h1 className="heading-l" ref={heading} tabIndex={-1}>
        Users
      </h1>
      <p className="lead">
        Who can sign in to VICS, and what their role lets them do.
      </p>
      {shown?.kind === "link" && (
        <OneTimeLinkNotice
          link={shown.link}
          purpose={shown.purpose}
          onDone={() => {
            setShown(undefined);
            heading.current?.focus();
          }}
        />
      )}
      {shown && shown.kind !== "link" && (
        <div
          ref={notice}
          tabIndex={-1}
          className={`notice${shown.kind === "done" ? " notice--success" : ""}`}
          role={shown.kind === "problem" ? "alert" : "status"}
        >
          {shown.kind === "problem" && (
            <p className="notice__title">That could not be done</p>
          )}
          <p>{shown.words}</p>
        </div>
      )}
      <QueryView
        query={users}
        loading="Loading the users…"
        problemTitle="The users cannot be shown"
      >
        {(data) => (
          <table className="data-table users">
            <caption className="visually-hidden">
              Users, with their role, state and way of signing in
            </caption>
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col">Role</th>
                <th scope="col">State</th>
                <th scope="col">Signs in with</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.users.map((user) => (
                <UserRow
                  key={user.id}
                  user={user}
                  isMe={user.id === me?.id}
                  busy={busy}
                  oidcOn={oidcOn}
                  onAction={onAction}
                />
              ))}
            </tbody>
          </table>
        )}
      </QueryView>
      {/* Only once the list has come (or failed): shown while it loads, the form sat where
          the list then pushed it down, however many users the team has (CLS 0.43). */}
      {!users.isPending && (
        <InviteForm
          onInvited={(link) =>
            setShown({ kind: "link", link, purpose: "invitation" })
          }
        />
      )}
    </div>
  );
}
