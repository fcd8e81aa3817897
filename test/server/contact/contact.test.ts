import { first } from "../../../src/db/transaction.ts";
import { describe, expect, test } from "bun:test";
import { contactMessages, mailOutbox } from "../../../src/db/schema/index.ts";
import { createTestApp } from "../../helpers/app.ts";
import { startSmtpFake } from "../../fakes/smtp.ts";
import { makeUser } from "../../helpers/fixtures.ts";

const valid = { name: "Jeanne Roux", email: "jeanne@example.fr", subject: "Question sur Pro", message: "Bonjour,\nune question." };

describe("POST /api/contact", () => {
  test("stores the message and answers success", async () => {
    const { call, db } = await createTestApp();
    const res = await call("POST", "/api/contact", { json: valid });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const rows = await db.select().from(contactMessages);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ ...valid, userId: null });
  });

  test("mails the message to SUPPORT_EMAIL", async () => {
    const { call, db } = await createTestApp({ env: { SUPPORT_EMAIL: "aide@unisson.fr" } });
    await call("POST", "/api/contact", { json: valid });
    const mails = await db.select().from(mailOutbox);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: "aide@unisson.fr", kind: "contact", subject: "[Contact Unisson] Question sur Pro" });
    expect(mails[0]!.text).toContain("jeanne@example.fr");
    expect(mails[0]!.text).toContain("une question.");
  });

  test("fields are trimmed and the e-mail lower-cased", async () => {
    const { call, db } = await createTestApp();
    await call("POST", "/api/contact", { json: { ...valid, name: "  Jeanne  ", email: " Jeanne@Example.FR " } });
    expect(await first(db.select().from(contactMessages))).toMatchObject({ name: "Jeanne", email: "jeanne@example.fr" });
  });

  test("a line break in the subject never reaches the mail's subject header", async () => {
    const { call, db } = await createTestApp();
    await call("POST", "/api/contact", { json: { ...valid, subject: "Bonjour\r\nBcc: victime@example.fr" } });
    expect((await first(db.select().from(mailOutbox)))!.subject).toBe("[Contact Unisson] Bonjour Bcc: victime@example.fr");
  });

  test("a valid bearer links the message to its account", async () => {
    const { call, db, clock } = await createTestApp();
    const { user, token } = await makeUser(db, clock.now());
    await call("POST", "/api/contact", { json: valid, token });
    expect((await first(db.select().from(contactMessages)))!.userId).toBe(user.id);
  });

  test("an invalid bearer is ignored: the message is stored anonymously", async () => {
    const { call, db } = await createTestApp();
    const res = await call("POST", "/api/contact", { json: valid, token: "x".repeat(43) });
    expect(res.status).toBe(200);
    expect((await first(db.select().from(contactMessages)))!.userId).toBeNull();
  });

  for (const [field, value, detail] of [
    ["name", " ", "Le nom est requis"],
    ["email", "", "L'email est requis"],
    ["email", "jeanne@", "Email invalide"],
    ["subject", "", "Le sujet est requis"],
    ["message", "   ", "Le message est requis"],
    ["name", "n".repeat(101), "Le nom est trop long (100 caractères au plus)"],
    ["subject", "s".repeat(201), "Le sujet est trop long (200 caractères au plus)"],
    ["message", "m".repeat(5001), "Le message est trop long (5000 caractères au plus)"],
    ["message", 42, "Le message est requis"],
  ] as const) {
    test(`${field}=${JSON.stringify(value).slice(0, 20)} answers 400 "${detail}", nothing stored`, async () => {
      const { call, db } = await createTestApp();
      const res = await call("POST", "/api/contact", { json: { ...valid, [field]: value } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail });
      expect(await db.select().from(contactMessages)).toEqual([]);
      expect(await db.select().from(mailOutbox)).toEqual([]);
    });
  }

  test("a missing field is refused with its French text", async () => {
    const { call } = await createTestApp();
    const { subject: _, ...rest } = valid;
    const res = await call("POST", "/api/contact", { json: rest });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("Le sujet est requis");
  });

  test("the sixth message from one IP in 10 minutes answers 429 with Retry-After", async () => {
    const { call } = await createTestApp();
    const headers = { "x-forwarded-for": "203.0.113.9" };
    for (let i = 0; i < 5; i++) expect((await call("POST", "/api/contact", { json: valid, headers })).status).toBe(200);
    const res = await call("POST", "/api/contact", { json: valid, headers });
    expect(res.status).toBe(429);
    expect(res.body.detail).toBe("Trop de tentatives. Veuillez réessayer dans quelques instants.");
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  test("another IP is not limited by the first one's messages", async () => {
    const { call } = await createTestApp();
    for (let i = 0; i < 5; i++) await call("POST", "/api/contact", { json: valid, headers: { "x-forwarded-for": "203.0.113.9" } });
    const res = await call("POST", "/api/contact", { json: valid, headers: { "x-forwarded-for": "198.51.100.7" } });
    expect(res.status).toBe(200);
  });

  test("the limit lifts after 10 minutes", async () => {
    const { call, clock } = await createTestApp();
    const headers = { "x-forwarded-for": "203.0.113.9" };
    for (let i = 0; i < 5; i++) await call("POST", "/api/contact", { json: valid, headers });
    clock.advance(10 * 60_000 + 1);
    expect((await call("POST", "/api/contact", { json: valid, headers })).status).toBe(200);
  });

  test("over SMTP the mail goes to SUPPORT_EMAIL with Reply-To set to the sender", async () => {
    const smtp = await startSmtpFake();
    try {
      const { call } = await createTestApp({ env: { SMTP_URL: smtp.url, SUPPORT_EMAIL: "aide@unisson.fr" } });
      expect((await call("POST", "/api/contact", { json: valid })).status).toBe(200);
      const mail = await smtp.waitForMessage((m) => m.to.includes("aide@unisson.fr"));
      expect(mail.subject).toBe("[Contact Unisson] Question sur Pro");
      expect(mail.raw).toMatch(/^Reply-To: jeanne@example\.fr\r?$/m);
      expect(mail.text).toContain("une question.");
    } finally {
      await smtp.close();
    }
  });

  test("when the mail fails the message is kept and the answer is 503 naming the support address", async () => {
    const smtp = await startSmtpFake({ mode: "refuse" });
    try {
      const { call, db } = await createTestApp({ env: { SMTP_URL: smtp.url, SUPPORT_EMAIL: "aide@unisson.fr" } });
      const res = await call("POST", "/api/contact", { json: valid });
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ detail: "Erreur lors de l'envoi. Veuillez réessayer ou nous contacter directement : aide@unisson.fr" });
      expect(await db.select().from(contactMessages)).toHaveLength(1);
    } finally {
      await smtp.close();
    }
  });
});
