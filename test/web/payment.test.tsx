// First: the DOM must exist before react-dom loads.
import { type Routed, routeFetch, signIn, useDom, appWithStripe } from "./pricing-harness.ts";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, mock, test } from "bun:test";
import { fireEvent, render, waitFor, within } from "@testing-library/react";
import { PaymentReturn } from "../../web/features/payment/payment-return.tsx";
import { PAYMENT_TIMING, POLL_MAX_ATTEMPTS } from "../../web/features/payment/use-payment-status.ts";
import { fr } from "../../web/i18n/fr.ts";
import { type FakeStripe, startFakeStripe } from "../fakes/stripe/server.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { makeUser } from "../helpers/fixtures.ts";

useDom();
const t = fr.payment;
const body = () => within(document.body);

let stripe: FakeStripe;
let ctx: TestApp;
let net: Routed;
let token: string;
beforeAll(async () => {
  stripe = await startFakeStripe();
});
afterAll(() => stripe.stop());
beforeEach(async () => {
  ctx = (await appWithStripe(async () => await createTestApp({ env: stripe.env }))) as TestApp;
  net = routeFetch(ctx.app);
  const made = await makeUser(ctx.db, ctx.clock.now());
  token = made.token;
  signIn(made.user, token, ctx.clock.now());
});
afterEach(() => net.restore());

/** A real Checkout Session of this user at the fake Stripe; returns its id. */
async function checkoutSession(): Promise<string> {
  const r = await ctx.call("POST", "/api/stripe/create-payment-intent", {
    token,
    json: { product_type: "subscription_basic", is_annual: false, origin_url: "http://localhost:3000" },
  });
  expect(r.status).toBe(200);
  return String(r.body.checkout_url).split("/").pop()!;
}

const polls = () => net.calls.filter((c) => c.includes("/checkout-status/")).length;

function show(sessionId: string) {
  window.history.replaceState(null, "", `/?session_id=${sessionId}`);
  const onClose = mock(() => {});
  const refresh = mock(async () => {});
  render(<PaymentReturn sessionId={sessionId} onClose={onClose} onUserRefresh={refresh} />);
  return { onClose, refresh };
}

describe("payment return (docs/PRODUCT.md#payment)", () => {
  test("the spec's timers: every 2 s, 10 tries, closed 2 s after paid", () => {
    expect(PAYMENT_TIMING).toEqual({ pollIntervalMs: 2_000, closeAfterPaidMs: 2_000 });
    expect(POLL_MAX_ATTEMPTS).toBe(10);
  });

  test("paid: session_id leaves the address bar, the user is refreshed, success, closed 2 s later", async () => {
    const id = await checkoutSession();
    await stripe.pay(id);
    const { onClose, refresh } = show(id);
    const shown = performance.now();
    expect(await body().findByText(t.success)).toBeTruthy();
    expect(window.location.search).toBe("");
    expect(refresh).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(performance.now() - shown).toBeGreaterThanOrEqual(1_900);
  });

  test("polled at the interval, at most 10 times, then the timeout message", async () => {
    // The ten 2 s waits shortened to 20 ms: fake timers do not reach these timers when other DOM test files share the process.
    const saved = { ...PAYMENT_TIMING };
    PAYMENT_TIMING.pollIntervalMs = 20;
    try {
      const id = await checkoutSession(); // never paid
      const { onClose } = show(id);
      const started = performance.now();
      const alert = await body().findByRole("alert");
      expect(alert.textContent).toBe("Délai de vérification dépassé. Veuillez vérifier votre compte ou contacter le support.");
      expect(performance.now() - started).toBeGreaterThanOrEqual(9 * 20);
      await Bun.sleep(100);
      expect(polls()).toBe(10);
      fireEvent.click(body().getByRole("button", { name: t.home }));
      expect(onClose).toHaveBeenCalled();
    } finally {
      Object.assign(PAYMENT_TIMING, saved);
    }
  });

  test("expired: its message and the return-to-home button", async () => {
    const id = await checkoutSession();
    stripe.state.expire(id);
    const { onClose, refresh } = show(id);
    expect((await body().findByRole("alert")).textContent).toBe("Session de paiement expirée. Veuillez réessayer.");
    fireEvent.click(body().getByRole("button", { name: t.home }));
    expect(onClose).toHaveBeenCalled();
    expect(refresh).not.toHaveBeenCalled();
  });

  test("another failure (an unknown session): the error message and the return-to-home button", async () => {
    show("cs_test_unknown_session");
    expect((await body().findByRole("alert")).textContent).toBe("Erreur lors de la vérification du paiement. Veuillez contacter le support.");
    expect(body().getByRole("button", { name: t.home })).toBeTruthy();
    expect(polls()).toBe(1);
  });
});
