// Sends email through one SMTP server (smtp://host:port, or smtps:// for TLS from the start),
// a connection per message: no pool to keep alive, go stale or hold a dead server's socket. Short
// timeouts, so an SMTP server that is down or silent fails the send within seconds with an error
// that says where it was going, for the delivery queue to retry later; never a send that hangs.
import nodemailer from "nodemailer";
import { isLoopbackHost } from "../../../gateway/edges/loopback.ts";
import type Mail from "nodemailer/lib/mailer";

interface MailerTimeouts {
  /** To open the connection (and to resolve the host's name). */
  connectMs: number;
  /** For the server's greeting once connected. */
  greetingMs: number;
  /** Of silence at any point of the conversation. */
  socketMs: number;
}

const MAILER_TIMEOUTS: MailerTimeouts = {
  connectMs: 10_000,
  greetingMs: 10_000,
  socketMs: 30_000,
};

export interface MailerOptions {
  /** "smtp://host:port" or "smtps://host:port", with "user:password@" when it needs a login. */
  url: string;
  /** The sender of a message that names none. */
  from: string;
  timeouts?: Partial<MailerTimeouts>;
}

export interface Mailer {
  /** Resolves once the server has accepted the message for every recipient. */
  send(message: Mail.Options): Promise<void>;
  close(): void;
}

interface SmtpServer {
  host: string;
  port: number;
  secure: boolean;
  auth?: { user: string; pass: string };
  /** Where, for error messages: never the login. */
  where: string;
}

const URL_FORM = "smtp://host:port or smtps://host:port";

/** The server an SMTP URL names. Options after "?" are refused, not silently applied. */
export function smtpServer(text: string): SmtpServer {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`The SMTP URL is not a URL: give it as ${URL_FORM}`);
  }
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:")
    throw new Error(`The SMTP URL must be ${URL_FORM}`);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (!host)
    throw new Error(`The SMTP URL has no host: give it as ${URL_FORM}`);
  if (url.search || url.hash || (url.pathname !== "" && url.pathname !== "/"))
    throw new Error(
      `The SMTP URL takes no path or options: give it as ${URL_FORM}`,
    );
  const secure = url.protocol === "smtps:";
  const port = url.port ? Number(url.port) : secure ? 465 : 587;
  const auth =
    url.username || url.password
      ? {
          user: decodeURIComponent(url.username),
          pass: decodeURIComponent(url.password),
        }
      : undefined;
  return {
    host,
    port,
    secure,
    ...(auth && { auth }),
    where: `${url.protocol}//${url.hostname}:${port}`,
  };
}

export function createMailer(options: MailerOptions): Mailer {
  const server = smtpServer(options.url);
  const timeouts = { ...MAILER_TIMEOUTS, ...options.timeouts };
  const transport = nodemailer.createTransport(
    {
      host: server.host,
      port: server.port,
      secure: server.secure,
      auth: server.auth,
      // A login never goes in the clear: without TLS from the start, STARTTLS is required
      // (refused if the server does not offer it, or someone strips it), except on loopback.
      requireTLS:
        !server.secure &&
        (server.auth !== undefined || !isLoopbackHost(server.host)),
      pool: false,
      connectionTimeout: timeouts.connectMs,
      dnsTimeout: timeouts.connectMs,
      greetingTimeout: timeouts.greetingMs,
      socketTimeout: timeouts.socketMs,
      // Messages are built from strings: nothing in one may make the proxy read a file or URL.
      disableFileAccess: true,
      disableUrlAccess: true,
    },
    { from: options.from },
  );
  return {
    async send(message) {
      let info;
      try {
        info = await transport.sendMail(message);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`Email not sent through ${server.where}: ${reason}`, {
          cause: error,
        });
      }
      if (info.rejected.length > 0)
        throw new Error(
          `Email not sent through ${server.where}: it refused ${info.rejected.map(String).join(", ")}`,
        );
    },
    close() {
      transport.close();
    },
  };
}
