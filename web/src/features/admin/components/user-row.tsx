// One user in the users table, with what an admin can do to them: change the role, disable or
// enable (each asked again first), and send a password reset.
import { useId, useState } from "react";
import { ROLES, type AdminUser, type Role } from "@vics/shared";
import { formatDateTime } from "../../../lib/dates.ts";
import { ROLE_NAMES } from "../../../lib/roles.ts";
import { useNow } from "../../../lib/use-now.ts";
import { STATE_WORDS, signInWords } from "../lib/user-words.ts";
import { ConfirmOrCancel, InlineConfirm } from "./inline-confirm.tsx";

export type UserAction =
  | { kind: "role"; role: Role }
  | { kind: "disable" }
  | { kind: "enable" }
  | { kind: "reset" }
  | { kind: "unlink" }
  | { kind: "allow-link" }
  | { kind: "withdraw-link" };

interface UserRowProps {
  user: AdminUser;
  isMe: boolean;
  busy: boolean;
  /** Whether the proxy offers an organisation (OIDC) sign-in at all. */
  oidcOn: boolean;
  onAction: (user: AdminUser, action: UserAction) => Promise<boolean>;
}

type Open = "role" | "disable" | "enable" | "unlink" | undefined;

export function UserRow({ user, isMe, busy, oidcOn, onAction }: UserRowProps) {
  const id = useId();
  const [open, setOpen] = useState<Open>();
  const [role, setRole] = useState<Role>(user.role);
  const who = user.name || user.email;
  const now = useNow();
  // An admin's leave to link by email that has not run out (nor been used).
  const linkAllowed =
    user.linkAllowedUntil !== null &&
    new Date(user.linkAllowedUntil).getTime() > now.getTime();
  const hidden = (
    <>
      {" "}
      <span className="visually-hidden">for {who}</span>
    </>
  );

  async function act(action: UserAction) {
    if (busy) return;
    if (await onAction(user, action)) setOpen(undefined);
  }

  return (
    <tr>
      <th scope="row">
        {user.name && <span className="users__name">{user.name}</span>}
        <span className="users__email">{user.email}</span>
        {isMe && <span className="hint"> (you)</span>}
      </th>
      <td data-label="Role">{ROLE_NAMES[user.role]}</td>
      <td data-label="State">
        <span className={`tag users__state users__state--${user.state}`}>
          {STATE_WORDS[user.state]}
        </span>
      </td>
      <td data-label="Signs in with">
        {signInWords(user)}
        {linkAllowed && (
          <span className="hint users__link-allowed">
            May link their organisation sign-in until{" "}
            {formatDateTime(user.linkAllowedUntil!)}
          </span>
        )}
      </td>
      <td className="users__actions">
        {open === "role" ? (
          <form
            className="users__inline"
            onSubmit={(event) => {
              event.preventDefault();
              void act({ kind: "role", role });
            }}
          >
            <label className="label" htmlFor={`${id}-role`}>
              New role for {who}
            </label>
            <select
              id={`${id}-role`}
              className="select"
              value={role}
              onChange={(event) => setRole(event.target.value as Role)}
            >
              {ROLES.map((each) => (
                <option key={each} value={each}>
                  {ROLE_NAMES[each]}
                </option>
              ))}
            </select>
            <ConfirmOrCancel busy={busy} onCancel={() => setOpen(undefined)}>
              Save role{hidden}
            </ConfirmOrCancel>
          </form>
        ) : open === "unlink" ? (
          <InlineConfirm
            label={`Confirm for ${who}`}
            question={`Unlink ${who}’s organisation sign-in? They are signed out at once; their own sign-in can be linked again later.`}
            busy={busy}
            onConfirm={() => void act({ kind: "unlink" })}
            onCancel={() => setOpen(undefined)}
          >
            Yes, unlink{hidden}
          </InlineConfirm>
        ) : open === "disable" || open === "enable" ? (
          <InlineConfirm
            label={`Confirm for ${who}`}
            question={
              open === "disable"
                ? `Disable ${who}? They are signed out at once and cannot sign in until an admin enables them.`
                : `Enable ${who}? They can sign in again.`
            }
            busy={busy}
            onConfirm={() => void act({ kind: open })}
            onCancel={() => setOpen(undefined)}
          >
            {open === "disable" ? "Yes, disable" : "Yes, enable"}
            {hidden}
          </InlineConfirm>
        ) : (
          <ul className="users__action-list">
            <li>
              <button
                type="button"
                className="link-button"
                onClick={() => {
                  setRole(user.role);
                  setOpen("role");
                }}
              >
                Change role{hidden}
              </button>
            </li>
            {user.state === "disabled" ? (
              <li>
                <button
                  type="button"
                  className="link-button"
                  onClick={() => setOpen("enable")}
                >
                  Enable{hidden}
                </button>
              </li>
            ) : (
              <>
                {!isMe && (
                  <li>
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => setOpen("disable")}
                    >
                      Disable{hidden}
                    </button>
                  </li>
                )}
                <li>
                  <button
                    type="button"
                    className="link-button"
                    aria-disabled={busy || undefined}
                    onClick={() => void act({ kind: "reset" })}
                  >
                    Send password reset{hidden}
                  </button>
                </li>
                {oidcOn &&
                  !user.signsInWith.includes("oidc") &&
                  linkAllowed && (
                    <li>
                      <button
                        type="button"
                        className="link-button"
                        aria-disabled={busy || undefined}
                        onClick={() => void act({ kind: "withdraw-link" })}
                      >
                        Withdraw the leave to link{hidden}
                      </button>
                    </li>
                  )}
                {oidcOn &&
                  !user.signsInWith.includes("oidc") &&
                  !linkAllowed && (
                    <li>
                      <button
                        type="button"
                        className="link-button"
                        aria-disabled={busy || undefined}
                        onClick={() => void act({ kind: "allow-link" })}
                      >
                        Allow organisation sign-in to link{hidden}
                      </button>
                    </li>
                  )}
                {user.signsInWith.includes("oidc") && (
                  <li>
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => setOpen("unlink")}
                    >
                      Unlink organisation sign-in{hidden}
                    </button>
                  </li>
                )}
              </>
            )}
          </ul>
        )}
      </td>
    </tr>
  );
}
