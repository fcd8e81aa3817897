import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { mailOutbox } from "../../../src/db/schema/index.ts";
import { createSmtpMailer } from "../../../src/lib/mail/smtp.ts";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser, TEST_PASSWORD } from "../../helpers/fixtures.ts";
import { extractCode, extractResetLink, resetTokenOf, type SmtpFake, startSilentServer, startSmtpFake } from "../../fakes/smtp.ts";

let smtp: SmtpFake | undefined;
afterEach(async () => {
  await smtp?.close();
  smtp = undefined;
});

async function setup() {
  smtp = await startSmtpFake();
  const t = await createTestApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: "Unisson <no-reply@unisson.test>" } });
  const { user } = await makeUser(t.db, t.clock.now(), { isAdmin: true });
  return { ...t, smtp, user };
}

describe("mail over real SMTP (SMTP_URL)", () => {
  test("the two-factor code travels by SMTP and signs in", async () => {
    const { call, smtp, user } = await setup();
    const res = await call("POST", "/api/auth/2fa/request", { json: { email: user.email, password: TEST_PASSWORD } });
    expect(res.status).toBe(200);
    const mail = await smtp.waitForMessage((m) => m.to.includes(user.email));
    expect(mail.from).toBe("no-reply@unisson.test");
    expect(mail.subject).toContain("code de connexion");
    const verified = await call("POST", "/api/auth/2fa/verify", { json: { email: user.email, code: extractCode(mail), remember_device: false } });
    expect(verified.status).toBe(200);
  });

  test("the reset link travels by SMTP and resets the password", async () => {
    const { call, smtp, user } = await setup();
    await call("POST", "/api/auth/forgot-password", { json: { email: user.email } });
    const mail = await smtp.waitForMessage((m) => m.to.includes(user.email));
    const link = extractResetLink(mail);
    expect(link.startsWith("http://localhost:3000/reset-password?token=")).toBe(true);
    expect(mail.html).toContain(link);
    const res = await call("POST", "/api/auth/reset-password", { json: { token: resetTokenOf(link), new_password: "Nouveau2026" } });
    expect(res.status).toBe(200);
  });

  test("the welcome mail of a registration arrives by SMTP", async () => {
    const { call, smtp } = await setup();
    await call("POST", "/api/auth/register", { json: { email: "lea@example.fr", password: "s3cret-girafe", first_name: "Léa", last_name: "Petit" } });
    const mail = await smtp.waitForMessage((m) => m.to.includes("lea@example.fr"));
    expect(mail.subject).toBe("Bienvenue sur Unisson");
    expect(mail.text).toContain("Bonjour Léa");
  });

  test("a sent mail is recorded in mail_outbox with status sent", async () => {
    const { call, db, user } = await setup();
    await call("POST", "/api/auth/2fa/request", { json: { email: user.email, password: TEST_PASSWORD } });
    const rows = await db.select().from(mailOutbox).where(eq(mailOutbox.to, user.email));
    expect(rows.map((r) => [r.kind, r.status])).toEqual([["two_factor", "sent"]]);
    expect(rows[0]?.sentAt).not.toBeNull();
  });

  test("a refusing SMTP server gives the caller a French 503, a log line and a failed outbox row", async () => {
    const { call, db, log, smtp, user } = await setup();
    smtp.setMode("refuse");
    const res = await call("POST", "/api/auth/2fa/request", { json: { email: user.email, password: TEST_PASSWORD } });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ detail: "L'envoi de l'email a échoué. Veuillez réessayer dans quelques instants." });
    expect(log.lines.some((l) => l.includes("ERROR mail failed"))).toBe(true);
    const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.to, user.email));
    expect(row?.status).toBe("failed");
    expect(row?.error).toContain("Mailbox unavailable");
  });

  test("after a failed send the resend is free at once (no 60-second wait)", async () => {
    const { call, smtp, user } = await setup();
    smtp.setMode("refuse");
    await call("POST", "/api/auth/2fa/request", { json: { email: user.email, password: TEST_PASSWORD } });
    smtp.setMode("accept");
    const retry = await call("POST", "/api/auth/2fa/request", { json: { email: user.email, password: TEST_PASSWORD } });
    expect(retry.status).toBe(200);
  });

  test("a failed send leaves the previous code valid", async () => {
    const { call, clock, smtp, user } = await setup();
    await call("POST", "/api/auth/2fa/request", { json: { email: user.email, password: TEST_PASSWORD } });
    const first = extractCode(await smtp.waitForMessage());
    clock.advance(61_000);
    smtp.setMode("refuse");
    await call("POST", "/api/auth/2fa/request", { json: { email: user.email, password: TEST_PASSWORD } });
    const res = await call("POST", "/api/auth/2fa/verify", { json: { email: user.email, code: first, remember_device: false } });
    expect(res.status).toBe(200);
  });

  test("a reset link mail that fails is recorded as failed and the answer stays the same", async () => {
    const { call, db, smtp, user } = await setup();
    smtp.setMode("refuse");
    const res = await call("POST", "/api/auth/forgot-password", { json: { email: user.email } });
    expect(res.status).toBe(200);
    const failed = async () => await db.select().from(mailOutbox).where(eq(mailOutbox.status, "failed"));
    for (let i = 0; i < 100 && (await failed()).length === 0; i++) await Bun.sleep(20);
    expect((await failed())[0]?.kind).toBe("reset");
  });

  test("an SMTP server that never answers fails the send instead of hanging", async () => {
    const silent = await startSilentServer();
    try {
      const t = await createTestApp();
      // The app's own database (SQLite or PostgreSQL), with short SMTP timeouts the configuration does not offer.
      t.deps.mailer = createSmtpMailer(t.db, t.clock, t.log, {
        url: silent.url,
        from: "no-reply@unisson.test",
        timeouts: { connectionTimeout: 300, greetingTimeout: 300, socketTimeout: 300 },
      });
      const { user } = await makeUser(t.db, t.clock.now(), { isAdmin: true });
      const res = await t.call("POST", "/api/auth/2fa/request", { json: { email: user.email, password: TEST_PASSWORD } });
      expect(res.status).toBe(503);
    } finally {
      await silent.close();
    }
  });
});
