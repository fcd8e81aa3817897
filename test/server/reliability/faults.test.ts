import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { aiProbeJob } from "../../../src/ai/probe.job.ts";
import { createTestClock } from "../../helpers/clock.ts";
import { errorMessage } from "../../../src/lib/errors.ts";
import { type FakeProviders, startFakeProviders } from "../../fakes/ai/index.ts";
import { type SmtpFake, startSmtpFake } from "../../fakes/smtp.ts";
import { type FakeStripe, startFakeStripe } from "../../fakes/stripe/server.ts";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser } from "../../helpers/fixtures.ts";

/**
 * Outside services failing the way they do in production — a provider that
 * hangs, an SMTP server that refuses, Stripe answering 500 — then coming
 * back: the product answers with its French message while they are down,
 * and works again without a restart or an operator once they are back.
 */
let ai: FakeProviders;
let smtp: SmtpFake;
let stripe: FakeStripe;
beforeAll(async () => {
  ai = startFakeProviders();
  smtp = await startSmtpFake();
  stripe = await startFakeStripe();
});
afterAll(async () => {
  await ai.stop();
  await smtp.close();
  stripe.stop();
});

async function world() {
  const clock = createTestClock();
  const t = await createTestApp({ env: { ...ai.env, ...stripe.env, SMTP_URL: smtp.url, AI_TIMEOUT_MS: "500" }, deps: { clock } });
  const { user, token } = await makeUser(t.db, clock.now());
  return { ...t, clock, user, token };
}

describe("faults of outside services, and recovery", () => {
  test("every provider hanging: a French 503, nothing charged; once they answer, the probe job restores the service", async () => {
    const t = await world();
    const chat = await t.call("POST", "/api/unisson/chat", { token: t.token, json: { message: "Quelle est la capitale de la France ?" } });
    expect(chat.status).toBe(200);
    ai.control.setAll({ fail: "hang", failOn: ["answer", "synthesis", "probe"] });
    try {
      const down = await t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: chat.body.conversation_id } });
      expect(down.status).toBe(503);
      expect([errorMessage("NOT_ENOUGH_ANSWERS"), errorMessage("MAINTENANCE"), errorMessage("SYNTHESIS_FAILED")]).toContain(down.body.detail);
      expect((await t.call("GET", "/api/auth/me", { token: t.token })).body.remaining_queries).toBe(5);

      ai.control.reset();
      // What the scheduler does every 15 s: probe the models whose backoff is over.
      t.clock.advance(5 * 60_000);
      await aiProbeJob.run(t.deps);
      expect((await t.call("GET", "/api/unisson/status")).body.system_operational).toBe(true);
      const again = await t.call("POST", "/api/unisson/chat", { token: t.token, json: { message: "Quelle est la capitale de la France ?" } });
      const up = await t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: again.body.conversation_id } });
      expect(up.status).toBe(200);
      expect((await t.call("GET", "/api/auth/me", { token: t.token })).body.remaining_queries).toBe(4);
    } finally {
      ai.control.reset();
    }
  }, 30_000);

  test("an SMTP server that refuses: a French 503 on the contact form; accepted again at once when it recovers", async () => {
    const t = await world();
    const message = { name: "Léa", email: "lea@example.fr", subject: "Question", message: "Bonjour" };
    smtp.setMode("refuse");
    try {
      const down = await t.call("POST", "/api/contact", { json: message, headers: { "x-forwarded-for": "10.1.1.1" } });
      expect(down.status).toBe(503);
      expect(down.body.detail).toStartWith("Erreur lors de l'envoi. Veuillez réessayer ou nous contacter directement");
    } finally {
      smtp.setMode("accept");
    }
    const up = await t.call("POST", "/api/contact", { json: { ...message, subject: "Question (bis)" }, headers: { "x-forwarded-for": "10.1.1.2" } });
    expect(up.status).toBe(200);
    await smtp.waitForMessage((m) => m.subject.includes("Question (bis)"));
  });

  test("an SMTP server that refuses: a French 503 on a two-factor code; the next request sends it", async () => {
    const t = await world();
    const admin = await makeUser(t.db, t.clock.now(), { isAdmin: true });
    const creds = { email: admin.user.email, password: "Motdepasse1" };
    smtp.setMode("refuse");
    try {
      const down = await t.call("POST", "/api/auth/2fa/request", { json: creds });
      expect([down.status, down.body.detail]).toEqual([503, errorMessage("MAIL_FAILED")]);
    } finally {
      smtp.setMode("accept");
    }
    expect((await t.call("POST", "/api/auth/2fa/request", { json: creds })).status).toBe(200);
    await smtp.waitForMessage((m) => m.to.includes(admin.user.email));
  });

  test("Stripe answering 500: a French 502 at checkout and at the status poll; both work once Stripe is back", async () => {
    const t = await world();
    const body = { product_type: "subscription_basic", is_annual: false, origin_url: "http://localhost:3000" };
    stripe.failNext("/v1/checkout/sessions", 500);
    const down = await t.call("POST", "/api/stripe/create-payment-intent", { token: t.token, json: body });
    expect([down.status, down.body.detail]).toEqual([502, errorMessage("STRIPE_UNAVAILABLE")]);

    const up = await t.call("POST", "/api/stripe/create-payment-intent", { token: t.token, json: body });
    expect(up.status).toBe(200);
    const id = String(up.body.checkout_url).split("/").pop()!;
    await stripe.pay(id);
    stripe.failNext("/v1/checkout/sessions", 500);
    const pollDown = await t.call("GET", `/api/stripe/checkout-status/${id}`, { token: t.token });
    expect(pollDown.status).toBe(502);
    const pollUp = await t.call("GET", `/api/stripe/checkout-status/${id}`, { token: t.token });
    expect([pollUp.status, pollUp.body.payment_status]).toEqual([200, "paid"]);
    expect((await t.call("GET", "/api/auth/me", { token: t.token })).body.subscription_type).toBe("basic");
  });
});
