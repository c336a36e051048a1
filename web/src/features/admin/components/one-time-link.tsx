// A one-time link the admin passes on themselves (VICS sends no email): shown once, with a copy
// button, when it stops working, and that it works once. It takes focus when it appears.
import { formatDateTime } from "../../../lib/dates.ts";
import type { OneTimeLink } from "../api/users-api.ts";
import { ShowOnceNotice } from "./show-once-notice.tsx";

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
  const who = link.user.name || link.user.email;
  return (
    <ShowOnceNotice
      showing={link}
      title={
        purpose === "invitation"
          ? `Invitation link for ${who}`
          : `Password reset link for ${who}`
      }
      headingLevel={2}
      label="Link"
      value={link.link}
      copyLabel="Copy link"
      buttonsClassName="one-time-link__buttons"
      onDone={onDone}
    >
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
    </ShowOnceNotice>
  );
}
