import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../../src/config.ts";
import { ensureAdmin } from "../../../src/users/admin-bootstrap.ts";
import { type FakeProviders, startFakeProviders } from "../../fakes/ai/index.ts";
import { extractCode, extractResetLink, resetTokenOf, type SmtpFake, startSmtpFake } from "../../fakes/smtp.ts";
import { type FakeStripe, startFakeStripe } from "../../fakes/stripe/server.ts";
import { createTestApp } from "../../helpers/app.ts";

/**
 * Known secret values go in through the environment (provider keys, Stripe
 * key and webhook secret, SMTP password, admin password); the app then runs
 * every flow that touches them, including failures that get logged. No
 * captured log line and no response may contain any of them, nor a
 * password, a password hash, a bearer token, a two-factor code or a reset
 * token.
 */
const KEYS = {
  OPENAI_API_KEY: "sk-SECRET-openai-5f1c9a",
  ANTHROPIC_API_KEY: "sk-ant-SECRET-7d2e4b",
  GOOGLE_API_KEY: "SECRET-google-9a8b7c",
  MISTRAL_API_KEY: "SECRET-mistral-3c4d5e",
  PERPLEXITY_API_KEY: "pplx-SECRET-6f7a8b",
};
const SMTP_PASS = "smtp-SECRET-pass-7731";
const WEBHOOK_SECRET = "whsec_SECRET_webhook_4412";
const ADMIN_PASSWORD = "Admin-SECRET-Pw1";
const USER_PASSWORD = "User-SECRET-Pw1";
const NEW_PASSWORD = "Reset-SECRET-Pw2";

let ai: FakeProviders;
let smtp: SmtpFake;
let stripe: FakeStripe;
beforeAll(async () => {
  ai = startFakeProviders();
  smtp = await startSmtpFake({ user: "unisson", pass: SMTP_PASS });
  stripe = await startFakeStripe({ webhookSecret: WEBHOOK_SECRET });
});
afterAll(async () => {
  await ai.stop();
  await smtp.close();
  stripe.stop();
});

/** Runs the flows; returns every response (status line, headers, body) as text, and the secrets met on the way. */
async function exercise() {
  const env = { ...ai.env, ...KEYS, ...stripe.env, SMTP_URL: smtp.url, ADMIN_EMAIL: "admin@example.fr", ADMIN_PASSWORD, AI_TIMEOUT_MS: "15000" };
  const t = await createTestApp({ env });
  const seen: string[] = [];
  const met: string[] = [...Object.values(KEYS), SMTP_PASS, WEBHOOK_SECRET, stripe.env.STRIPE_SECRET_KEY, ADMIN_PASSWORD, USER_PASSWORD, NEW_PASSWORD];
  const call = async (method: string, path: string, init: Parameters<typeof t.call>[2] = {}) => {
    const res = await t.call(method, path, init);
    seen.push(`${res.status} ${JSON.stringify([...res.headers])} ${JSON.stringify(res.body)}`);
    return res;
  };
  /** The flows must really run: a step that silently failed would leave secrets unexercised. */
  const must = <T extends { status: number }>(res: T, status = 200): T => {
    if (res.status !== status) throw new Error(`step answered ${res.status}, expected ${status}`);
    return res;
  };
  await ensureAdmin(t.deps);

  const reg = await call("POST", "/api/auth/register", { json: { email: "lea@example.fr", password: USER_PASSWORD, first_name: "Léa", last_name: "Roux" } });
  await call("POST", "/api/auth/login", { json: { email: "lea@example.fr", password: "mauvais-mot-de-passe" } });
  const login = must(await call("POST", "/api/auth/login", { json: { email: "lea@example.fr", password: USER_PASSWORD } }));
  const token: string = login.body.token;
  met.push(reg.body.token, token);
  await call("GET", "/api/auth/me", { token });

  // Admin two-factor, through the real SMTP fake.
  await call("POST", "/api/auth/login", { json: { email: "admin@example.fr", password: ADMIN_PASSWORD } });
  await call("POST", "/api/auth/2fa/request", { json: { email: "admin@example.fr", password: ADMIN_PASSWORD } });
  const code = extractCode(await smtp.waitForMessage((m) => m.to.includes("admin@example.fr")));
  await call("POST", "/api/auth/2fa/verify", { json: { email: "admin@example.fr", code: code === "000000" ? "111111" : "000000" } });
  const verified = must(await call("POST", "/api/auth/2fa/verify", { json: { email: "admin@example.fr", code, remember_device: true } }));
  met.push(code, verified.body.token);
  await call("GET", "/api/admin/users", { token: verified.body.token });

  // Password reset.
  await call("POST", "/api/auth/forgot-password", { json: { email: "lea@example.fr" } });
  const resetToken = resetTokenOf(extractResetLink(await smtp.waitForMessage((m) => m.to.includes("lea@example.fr") && m.text.includes("reset-password"))));
  met.push(resetToken);
  await call("GET", `/api/auth/validate-reset-token/${resetToken}`);
  await call("POST", "/api/auth/reset-password", { json: { token: resetToken, new_password: NEW_PASSWORD } });
  const again = must(await call("POST", "/api/auth/login", { json: { email: "lea@example.fr", password: NEW_PASSWORD } }));
  met.push(again.body.token);

  // Chat, with two providers failing the way a revoked key and an outage do.
  ai.control.set("gpt4", { fail: 401 }).set("mistralLarge", { fail: 500 });
  const chat = await call("POST", "/api/unisson/chat", { token: again.body.token, json: { message: "Quelle est la capitale de la France ?" } });
  must(await call("POST", "/api/unisson/process", { token: again.body.token, json: { conversation_id: chat.body.conversation_id } }));
  ai.control.reset();

  // Payment, a Stripe outage, a forged webhook and a real one.
  const checkout = must(
    await call("POST", "/api/stripe/create-payment-intent", {
      token: again.body.token,
      json: { product_type: "subscription_basic", is_annual: false, origin_url: "http://localhost:3000" },
    }),
  );
  const sessionId = String(checkout.body.checkout_url).split("/").pop()!;
  const paid = await stripe.pay(sessionId);
  stripe.failNext("/v1/checkout/sessions", 500);
  await call("GET", `/api/stripe/checkout-status/${sessionId}`, { token: again.body.token });
  await call("POST", "/api/stripe/webhook", { json: { id: "evt_forged" }, headers: { "stripe-signature": "t=1,v1=deadbeef" } });
  const signed = await stripe.sign(stripe.event("checkout.session.completed", paid));
  const hook = await t.app.request("/api/stripe/webhook", {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": signed.signature },
    body: signed.body,
  });
  seen.push(`${must(hook).status} ${await hook.text()}`);

  // The mail server refuses: the failure is logged.
  smtp.setMode("refuse");
  await call("POST", "/api/contact", { json: { name: "Léa", email: "lea@example.fr", subject: "Question", message: "Bonjour" } });
  await call("POST", "/api/auth/forgot-password", { json: { email: "lea@example.fr" } });
  smtp.setMode("accept");

  return { lines: t.log.lines, responses: seen, secrets: met.filter(Boolean) };
}

describe("secrets never reach logs or responses", () => {
  let run: Awaited<ReturnType<typeof exercise>>;
  beforeAll(async () => {
    run = await exercise();
  }, 60_000);

  test("the flows ran and logged (the check below has lines to search)", () => {
    expect(run.lines.length).toBeGreaterThan(20);
    expect(run.lines.some((l) => l.includes("ERROR") || l.includes("WARN"))).toBe(true);
  });

  test("no log line holds a key, password, token, code or password hash", () => {
    const leaks = run.lines.filter((line) => run.secrets.some((s) => line.includes(s)) || line.includes("$argon2"));
    expect(leaks).toEqual([]);
  });

  test("no response holds a configured secret, a password or a password hash", () => {
    const configured = [...Object.values(KEYS), SMTP_PASS, WEBHOOK_SECRET, stripe.env.STRIPE_SECRET_KEY, ADMIN_PASSWORD, USER_PASSWORD, NEW_PASSWORD];
    const leaks = run.responses.filter((r) => configured.some((s) => r.includes(s)) || r.includes("$argon2"));
    expect(leaks).toEqual([]);
  });

  test("a mistyped SMTP_URL is reported without its password", () => {
    expect(() => loadConfig({ DATABASE_PATH: ":memory:", SMTP_URL: `smtps//unisson:${SMTP_PASS}@mail.example.fr:465` })).toThrow(
      'Configuration invalide : SMTP_URL="smtps//[masqué]@mail.example.fr:465" doit être une URL smtp:// ou smtps://',
    );
  });

  test("a malformed base URL carrying a key is reported without the key", () => {
    let message = "";
    try {
      loadConfig({ DATABASE_PATH: ":memory:", OPENAI_API_KEY: KEYS.OPENAI_API_KEY, OPENAI_BASE_URL: `https://${KEYS.OPENAI_API_KEY}@x y` });
    } catch (e) {
      message = String(e);
    }
    expect(message).toContain("OPENAI_BASE_URL");
    expect(message).not.toContain(KEYS.OPENAI_API_KEY);
  });
});
