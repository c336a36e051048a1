// Test support for the alert emails: a real SMTP server (smtp-server) on 127.0.0.1 that keeps
// every message it is given, parsed as a mail client would (mailparser). It can be stopped and
// started again on the same port, as an SMTP server that is down for a while.
import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface Received {
  envelopeTo: string[];
  mail: ParsedMail;
}

export interface Inbox {
  port: number;
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** Starts an inbox on `port` (a free one when 0), keeping messages in `received`. */
export async function startInbox(
  port = 0,
  received: Received[] = [],
): Promise<Inbox> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push({
            envelopeTo: session.envelope.rcptTo.map((to) => to.address),
            mail,
          });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const bound = (server.server.address() as AddressInfo).port;
  return {
    port: bound,
    url: `smtp://127.0.0.1:${bound}`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
