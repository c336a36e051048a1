// On the alerts page: email. Whether a mail server is set up (without one, emails wait in the
// delivery log, unsent), and when the daily digest goes (UK time, which the admin sets).
import { useQuery } from "@tanstack/react-query";
import { DigestTimeSchema } from "@vics/shared";
import { StatusIcon } from "../../../components/status-icon.tsx";
import { useSessionUser } from "../../../lib/session-user.ts";
import {
  alertMailQueryOptions,
  useSetDigestTimeMutation,
} from "../api/alerts-api.ts";
import { adminProblemWords } from "../lib/admin-problems.ts";
import { QueryView } from "./query-view.tsx";
import { TimeOfDayForm } from "./time-of-day-form.tsx";

const TIME_ID = "alerts-digest-time";

function DigestTimeForm({ current }: { current: string }) {
  const save = useSetDigestTimeMutation();
  const me = useSessionUser();
  return (
    <TimeOfDayForm
      id={TIME_ID}
      label="Daily digest time"
      hint="UK time, 24-hour, such as 07:00. The alerts not emailed at once go then, one email a day to each address. It stays at that time in London across the clock change."
      current={current}
      check={(time) => {
        const parsed = DigestTimeSchema.safeParse({ digestTime: time });
        return parsed.success ? undefined : parsed.error.issues[0]?.message;
      }}
      save={save}
      savedWords={({ digestTime }) =>
        `The daily digest now goes at ${digestTime}, UK time.`
      }
      problemWords={(error) => adminProblemWords(error, me?.role)}
    />
  );
}

export function AlertMailSection() {
  const mail = useQuery(alertMailQueryOptions());
  return (
    <section aria-labelledby="alert-mail-heading">
      <h2 id="alert-mail-heading" className="heading-m">
        Email
      </h2>
      <QueryView
        query={mail}
        loading="Loading the email settings…"
        problemTitle="The email settings cannot be shown"
      >
        {(data) => (
          <>
            {data.emailOn ? (
              <p>
                <StatusIcon status="pass" /> Email is on: alerts are emailed to
                the addresses of each fleet’s rule.
              </p>
            ) : (
              <p className="inset-warning">
                <StatusIcon status="warning" />
                Email is off: no mail server is set up. Emails wait in the
                delivery log, unsent, until an operator sets ALERT_SMTP_URL and
                ALERT_MAIL_FROM.
              </p>
            )}
            <DigestTimeForm current={data.digestTime} />
          </>
        )}
      </QueryView>
    </section>
  );
}
