// The mailer against a real SMTP server, started here on 127.0.0.1: what it receives is parsed
// as a mail client would, and a server that is down, or silent, fails the send within seconds.
import {
  createServer,
  type AddressInfo,
  type Server,
  type Socket,
} from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { alertMail } from "./alert-mail.ts";
import { createMailer, smtpServer, type Mailer } from "./mailer.ts";
import { SMTPServer } from "smtp-server";
import { startInbox, type Received } from "../../../testing/smtp-inbox.ts";

const message = () =>
  alertMail({
    from: "VICS <alerts@vics.example>",
    to: "manager@fleet.example",
    timing: "instant",
    day: "2027-03-03",
    alerts: [
      {
        alert: {
          id: 7,
          registration: "AB12CDE",
          kind: "mot-expired",
          detail: { expiry: "2027-03-01" },
          openedAt: Date.parse("2027-03-03T06:00:00Z"),
        },
        fleet: { id: "f-1", name: "Vans north" },
      },
    ],
    appUrl: "https://vics.example",
    unsubscribeUrl: "https://vics.example/api/unsubscribe/tok-123",
    messageId: "<alert-7@vics.example>",
  });

const FAST = { connectMs: 500, greetingMs: 500, socketMs: 2_000 };

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function mailerTo(port: number): Mailer {
  const mailer = createMailer({
    url: `smtp://127.0.0.1:${port}`,
    from: "VICS <alerts@vics.example>",
    timeouts: FAST,
  });
  cleanups.push(() => mailer.close());
  return mailer;
}

/** A port nothing listens on: one the system gave out, then freed. */
async function closedPort(): Promise<number> {
  const inbox = await startInbox();
  await inbox.close();
  return inbox.port;
}

describe("createMailer", () => {
  it("delivers the alert email as a mail client reads it: recipients, subject, words, link and unsubscribe headers", async () => {
    const inbox = await startInbox();
    cleanups.push(() => inbox.close());
    await mailerTo(inbox.port).send(message());

    expect(inbox.received).toHaveLength(1);
    const [{ envelopeTo, mail }] = inbox.received as [Received];
    expect(envelopeTo).toEqual(["manager@fleet.example"]);
    expect(mail.from?.value).toEqual([
      { address: "alerts@vics.example", name: "VICS" },
    ]);
    expect(mail.subject).toBe(
      "VICS: AB12 CDE needs you now – MOT expired on 1 March 2027",
    );
    expect(mail.messageId).toBe("<alert-7@vics.example>");
    expect(mail.text).toContain("- AB12 CDE: MOT expired on 1 March 2027");
    expect(mail.text).toContain("https://vics.example/fleets/vehicles/AB12CDE");
    expect(mail.html).toContain(
      '<a href="https://vics.example/fleets/vehicles/AB12CDE">AB12 CDE</a>',
    );
    const header = (key: string) =>
      mail.headerLines.find((line) => line.key === key)?.line;
    expect(header("list-unsubscribe")).toBe(
      "List-Unsubscribe: <https://vics.example/api/unsubscribe/tok-123>",
    );
    expect(header("list-unsubscribe-post")).toBe(
      "List-Unsubscribe-Post: List-Unsubscribe=One-Click",
    );
  });

  it("fails fast, saying where, while the SMTP server is down; sends once it is back", async () => {
    const port = await closedPort();
    const mailer = mailerTo(port);

    const started = Date.now();
    await expect(mailer.send(message())).rejects.toThrow(
      `Email not sent through smtp://127.0.0.1:${port}: connect ECONNREFUSED`,
    );
    expect(Date.now() - started).toBeLessThan(2_000);

    const inbox = await startInbox(port);
    cleanups.push(() => inbox.close());
    await mailer.send(message());
    expect(inbox.received.map((r) => r.mail.subject)).toEqual([
      "VICS: AB12 CDE needs you now – MOT expired on 1 March 2027",
    ]);
  });

  it("gives up on a server that answers the connection but never greets", async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) =>
      silent.listen(0, "127.0.0.1", () => resolve()),
    );
    cleanups.push(
      () => new Promise((resolve) => silent.close(() => resolve(undefined))),
      () => sockets.forEach((socket) => socket.destroy()),
    );
    const { port } = silent.address() as AddressInfo;

    const started = Date.now();
    await expect(mailerTo(port).send(message())).rejects.toThrow(
      /^Email not sent through smtp:\/\/127\.0\.0\.1:\d+: Greeting never received/,
    );
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("fails when the server refuses a recipient, even with another accepted", async () => {
    const picky = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onRcptTo(address, _session, callback) {
        callback(
          address.address.startsWith("nobody@")
            ? new Error("No such mailbox")
            : undefined,
        );
      },
      onData(stream, _session, callback) {
        stream.resume();
        stream.on("end", () => callback());
      },
    });
    await new Promise<void>((resolve) =>
      picky.listen(0, "127.0.0.1", () => resolve()),
    );
    cleanups.push(
      () => new Promise((resolve) => picky.close(() => resolve(undefined))),
    );
    const { port } = picky.server.address() as AddressInfo;

    const mailer = mailerTo(port);
    await expect(mailer.send(message())).resolves.toBeUndefined();
    await expect(
      mailer.send({ ...message(), to: "nobody@fleet.example" }),
    ).rejects.toThrow(
      /^Email not sent through smtp:\/\/127\.0\.0\.1:\d+: .*No such mailbox/,
    );
    await expect(
      mailer.send({
        ...message(),
        to: ["manager@fleet.example", "nobody@fleet.example"],
      }),
    ).rejects.toThrow(
      `Email not sent through smtp://127.0.0.1:${port}: it refused nobody@fleet.example`,
    );
  });
});

describe("smtpServer", () => {
  it("reads the host, port, TLS and login from the URL, with the usual ports by default", () => {
    expect(smtpServer("smtp://mail.example:2525")).toEqual({
      host: "mail.example",
      port: 2525,
      secure: false,
      where: "smtp://mail.example:2525",
    });
    expect(smtpServer("smtps://us%40r:p%3Ass@mail.example")).toEqual({
      host: "mail.example",
      port: 465,
      secure: true,
      auth: { user: "us@r", pass: "p:ss" },
      where: "smtps://mail.example:465",
    });
    expect(smtpServer("smtp://[::1]").host).toBe("::1");
    expect(smtpServer("smtp://mail.example").port).toBe(587);
  });

  it.each([
    ["http://mail.example", "must be smtp://host:port"],
    ["not a url", "is not a URL"],
    ["smtp://mail.example?pool=true", "takes no path or options"],
    ["smtp://mail.example/x", "takes no path or options"],
  ])("refuses %s", (url, error) => {
    expect(() => smtpServer(url)).toThrow(error);
  });

  it("never puts the login in an error", async () => {
    const port = await closedPort();
    const mailer = createMailer({
      url: `smtp://user:secret-pass@127.0.0.1:${port}`,
      from: "alerts@vics.example",
      timeouts: FAST,
    });
    cleanups.push(() => mailer.close());
    const error = await mailer.send(message()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).not.toContain("secret-pass");
  });
});
