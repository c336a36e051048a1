// A one-time link the admin passes on themselves (VICS sends no email): shown once, with a copy
// button, when it stops working, and that it works once. It takes focus when it appears.
import { useEffect, useId, useRef, useState } from "react";
import { formatDateTime } from "../../../lib/dates.ts";
import type { OneTimeLink } from "../api/users-api.ts";

interface OneTimeLinkNoticeProps {
  link: OneTimeLink;
  purpose: "invitation" | "reset";
  onDone: () => void;
}

export function OneTimeLinkNotice({
  link,
  purpose,
  onDone,
}: OneTimeLinkNoticeProps) {
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const [copied, setCopied] = useState<"yes" | "no">();
  const who = link.user.name || link.user.email;

  useEffect(() => {
    box.current?.focus();
  }, [link]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(link.link);
      setCopied("yes");
    } catch {
      setCopied("no");
    }
  }

  return (
    <div
      ref={box}
      className="notice notice--success"
      tabIndex={-1}
      aria-labelledby={`${id}-title`}
      role="region"
    >
      <h2 id={`${id}-title`} className="notice__title heading-m">
        {purpose === "invitation"
          ? `Invitation link for ${who}`
          : `Password reset link for ${who}`}
      </h2>
      <p>
        Send this link to {link.user.email} yourself: VICS does not send email.
        It works once, until {formatDateTime(link.expiresAt)} (UK time).
        {purpose === "reset" &&
          " Opening it lets them choose a new password; their old one stops working when they do."}
      </p>
      <p>
        <strong>
          This is the only time the link is shown. Copy it before you leave this
          page.
        </strong>
      </p>
      <label className="label" htmlFor={`${id}-link`}>
        Link
      </label>
      <input
        id={`${id}-link`}
        className="input input--full one-time-link__input"
        readOnly
        value={link.link}
        onFocus={(event) => event.currentTarget.select()}
      />
      <div className="button-group one-time-link__buttons">
        <button type="button" className="button" onClick={() => void copy()}>
          Copy link
        </button>
        <button
          type="button"
          className="button button--secondary"
          onClick={onDone}
        >
          Done
        </button>
      </div>
      <p className="one-time-link__copied" role="status">
        {copied === "yes"
          ? "Link copied."
          : copied === "no"
            ? "The browser did not let VICS copy it: select the link and copy it yourself."
            : ""}
      </p>
    </div>
  );
}
