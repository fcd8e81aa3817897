import { createServer, type Server, type Socket } from "node:net";
import PostalMime from "postal-mime";
import { SMTPServer } from "smtp-server";

/**
 * A local SMTP server on 127.0.0.1 (port 0) speaking the real protocol
 * (smtp-server), for tests that send mail through nodemailer with
 * SMTP_URL=fake.url. Captures every message, parsed with postal-mime.
 *
 *   const smtp = await startSmtpFake();
 *   const { call } = createTestApp({ env: { SMTP_URL: smtp.url } });
 *   const mail = await smtp.waitForMessage((m) => m.to.includes("a@b.fr"));
 *   extractCode(mail); extractResetLink(mail);
 *   smtp.setMode("refuse");   // 550 on every recipient
 *   await smtp.close();
 */

export type CapturedMail = {
  from: string;
  /** Envelope recipients, lower-cased. */
  to: string[];
  subject: string;
  text: string;
  html: string;
  raw: string;
};

export type SmtpMode = "accept" | "refuse";

export type SmtpFake = {
  port: number;
  /** smtp://user:pass@127.0.0.1:port, ready for SMTP_URL. */
  url: string;
  messages: CapturedMail[];
  setMode(mode: SmtpMode): void;
  /** Resolves with the first message (already received or to come) that matches. */
  waitForMessage(match?: (m: CapturedMail) => boolean, timeoutMs?: number): Promise<CapturedMail>;
  close(): Promise<void>;
};

export async function startSmtpFake(opts: { mode?: SmtpMode; user?: string; pass?: string } = {}): Promise<SmtpFake> {
  let mode: SmtpMode = opts.mode ?? "accept";
  const user = opts.user ?? "unisson";
  const pass = opts.pass ?? "secret";
  const messages: CapturedMail[] = [];
  const waiters: Array<{ match: (m: CapturedMail) => boolean; resolve: (m: CapturedMail) => void }> = [];

  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === user && auth.password === pass) return cb(null, { user: auth.username });
      cb(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
    },
    onRcptTo(_address, _session, cb) {
      if (mode === "refuse") return cb(Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 }));
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", async () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const parsed = await PostalMime.parse(raw);
        const mail: CapturedMail = {
          from: parsed.from?.address ?? "",
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          subject: parsed.subject ?? "",
          text: parsed.text ?? "",
          html: parsed.html ?? "",
          raw,
        };
        messages.push(mail);
        for (const w of [...waiters]) {
          if (w.match(mail)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(mail);
          }
        }
        cb();
      });
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.server.address() as { port: number }).port));
  });

  return {
    port,
    url: `smtp://${user}:${pass}@127.0.0.1:${port}`,
    messages,
    setMode: (m) => {
      mode = m;
    },
    waitForMessage(match = () => true, timeoutMs = 5_000) {
      const found = messages.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no matching mail reached the SMTP fake")), timeoutMs);
        waiters.push({
          match,
          resolve: (m) => {
            clearTimeout(timer);
            resolve(m);
          },
        });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A TCP server that accepts connections and never says a word: an SMTP
 * server that hangs before its greeting (tests of the mailer's timeouts).
 */
export async function startSilentServer(): Promise<{ port: number; url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  const port = await new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)));
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The 6-digit two-factor code of a mail (text part). */
export function extractCode(mail: Pick<CapturedMail, "text">): string {
  const m = mail.text.match(/\b(\d{6})\b/);
  if (!m) throw new Error(`no 6-digit code in mail: ${mail.text}`);
  return m[1]!;
}

/** The password-reset link of a mail (text part). */
export function extractResetLink(mail: Pick<CapturedMail, "text">): string {
  const m = mail.text.match(/https?:\/\/\S+\/reset-password\?token=[\w-]+/);
  if (!m) throw new Error(`no reset link in mail: ${mail.text}`);
  return m[0];
}

/** The token query parameter of a reset link. */
export function resetTokenOf(link: string): string {
  return new URL(link).searchParams.get("token") ?? "";
}
