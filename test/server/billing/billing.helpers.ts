import type { NewUser } from "../../../src/users/users.queries.ts";
import { createTestClock } from "../../helpers/clock.ts";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser } from "../../helpers/fixtures.ts";
import { type FakeStripe, startFakeStripe } from "../../fakes/stripe/server.ts";

const running: FakeStripe[] = [];

/** Stops every fake Stripe a test started (use in afterEach). */
export function stopFakes() {
  while (running.length) running.pop()!.stop();
}

export const ORIGIN = "http://localhost:3000";

/** An app wired to a fresh local Stripe, sharing one test clock with it. */
export async function billingApp(env: Record<string, string> = {}) {
  const clock = createTestClock();
  const fake = await startFakeStripe({ now: () => Math.floor(clock.now().getTime() / 1000) });
  running.push(fake);
  const t = await createTestApp({ env: { ...fake.env, ...env }, deps: { clock } });

  /** Posts a signed event to the webhook route, as Stripe does (no Origin, raw JSON body). */
  async function webhook(evt: unknown, signature?: string) {
    const signed = await fake.sign(evt);
    const res = await t.app.request("/api/stripe/webhook", {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": signature ?? signed.signature },
      body: signed.body,
    });
    return { status: res.status, body: (await res.json()) as any };
  }

  async function checkout(token: string, product_type: string, extra: Record<string, unknown> = {}) {
    return t.call("POST", "/api/stripe/create-payment-intent", { token, json: { product_type, is_annual: false, origin_url: ORIGIN, ...extra } });
  }

  /** Checkout, pay at the fake, then poll the status: the subscriber a test starts from. */
  async function subscribe(token: string, product_type: string, extra: Record<string, unknown> = {}) {
    const res = await checkout(token, product_type, extra);
    if (res.status !== 200) throw new Error(`checkout failed: ${JSON.stringify(res.body)}`);
    const id = sessionId(res.body.checkout_url);
    await fake.pay(id);
    const status = await t.call("GET", `/api/stripe/checkout-status/${id}`, { token });
    if (status.body.payment_status !== "paid") throw new Error("not paid");
    return id;
  }

  const user = async (values: Partial<NewUser> = {}) => await makeUser(t.db, clock.now(), values);
  const me = (token: string) => t.call("GET", "/api/subscription/status", { token });

  return { ...t, clock, fake, webhook, checkout, subscribe, user, me };
}

export function sessionId(checkoutUrl: string): string {
  return checkoutUrl.split("/").pop()!;
}
