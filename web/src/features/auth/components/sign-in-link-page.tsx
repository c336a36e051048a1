// "/sign-in/link#token=...": the one-time sign-in link `npm start` prints. It signs in at once
// and goes to the insurance check; a link used before, or too old, says what to do instead.
import { useEffect, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import { DocumentTitle } from "../../../components/document-title.tsx";
import { LoadingMessage } from "../../../components/loading-message.tsx";
import { isApiError } from "@vics/shared";
import { appPaths } from "../../../lib/app-paths.ts";
import { signInWithLink } from "../api/auth-api.ts";
import { useSessionMutation } from "../api/session-query.ts";
import { forgetLinkToken } from "../lib/link-token.ts";
import { useLinkToken } from "../lib/use-link-token.ts";

type Problem = "no-token" | "not-usable" | "failed";

export function SignInLinkPage() {
  const token = useLinkToken();
  const { mutate: signIn } = useSessionMutation(signInWithLink);
  const navigate = useNavigate();
  const [problem, setProblem] = useState<Problem | undefined>(
    token === undefined ? "no-token" : undefined,
  );
  const heading = useRef<HTMLHeadingElement>(null);
  // A link works once: never sent twice, even when React runs the effect twice.
  const sent = useRef(false);

  useEffect(() => {
    if (token === undefined || sent.current) return;
    sent.current = true;
    signIn(token, {
      onSuccess: () => void navigate(appPaths.home(), { replace: true }),
      onError: (error) =>
        setProblem(
          isApiError(error) && error.code === "LINK_NOT_USABLE"
            ? "not-usable"
            : "failed",
        ),
    });
    forgetLinkToken();
  }, [token, signIn, navigate]);

  useEffect(() => {
    if (problem) heading.current?.focus();
  }, [problem]);

  if (!problem)
    return (
      <>
        <DocumentTitle title="Signing in" />
        <LoadingMessage>Signing you in…</LoadingMessage>
      </>
    );

  const title =
    problem === "failed"
      ? "VICS could not sign you in"
      : "This sign-in link cannot be used";
  return (
    <div className="grid-row">
      <div className="column-two-thirds">
        <DocumentTitle title={title} />
        <h1 className="heading-l" ref={heading} tabIndex={-1}>
          {title}
        </h1>
        {problem === "not-usable" && (
          <p>
            It has been used already, or it has expired. A sign-in link works
            once, for a short time.
          </p>
        )}
        {problem === "no-token" && (
          <p>
            The address is not complete: the part after the # is missing. Copy
            the whole link and open it again.
          </p>
        )}
        {problem === "failed" && (
          <p>
            Something went wrong on the way. Open the link again in a moment; if
            it then says it cannot be used, get a new one.
          </p>
        )}
        <p>To get a new link:</p>
        <ul>
          <li>
            if you started VICS yourself, run <code>npm start</code> again: it
            prints a new sign-in link
          </li>
          <li>otherwise, ask an admin to send you a new link</li>
        </ul>
        <p>
          <Link to={appPaths.signIn()}>Sign in with your email address</Link>
        </p>
      </div>
    </div>
  );
}
