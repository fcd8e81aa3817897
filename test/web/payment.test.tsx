// First: the DOM must exist before react-dom loads.
import { flush, type Routed, routeFetch, signIn, useDom } from "./pricing-harness.ts";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, jest, mock, test } from "bun:test";
import { act, fireEvent, render, within } from "@testing-library/react";
import { PaymentReturn } from "../../web/features/payment/payment-return.tsx";
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
beforeEach(() => {
  ctx = createTestApp({ env: stripe.env });
  net = routeFetch(ctx.app);
  const made = makeUser(ctx.db, ctx.clock.now());
  token = made.token;
  signIn(made.user, token, ctx.clock.now());
});
afterEach(() => {
  net.restore();
  jest.useRealTimers();
});

/** A real Checkout Session of this user at the fake Stripe; returns its id. */
async function checkoutSession(): Promise<string> {
  const r = await ctx.call("POST", "/api/stripe/create-payment-intent", {
    token,
    json: { product_type: "subscription_basic", is_annual: false, origin_url: "http://localhost:3000" },
  });
  expect(r.status).toBe(200);
  return String(r.body.checkout_url).split("/").pop()!;
}

/**
 * Lets the app's real I/O (the fake Stripe's sockets) run while the page's
 * timers stay fake: setImmediate is the one wait bun's fake timers leave real.
 */
async function until(cond: () => boolean, turns = 20_000) {
  for (let i = 0; !cond(); i++) {
    if (i > turns) throw new Error("condition not met in time");
    await new Promise((r) => setImmediate(r));
    if (i % 20 === 0) await flush(1);
  }
}
const polls = () => net.calls.filter((c) => c.includes("/checkout-status/")).length;

function show(sessionId: string) {
  window.history.replaceState(null, "", `/?session_id=${sessionId}`);
  const onClose = mock(() => {});
  const refresh = mock(async () => {});
  render(<PaymentReturn sessionId={sessionId} onClose={onClose} onUserRefresh={refresh} />);
  return { onClose, refresh };
}

describe("payment return (spec sections 2, 4, 8)", () => {
  test("paid: session_id leaves the address bar, the user is refreshed, success, closed 2 s later", async () => {
    const id = await checkoutSession();
    await stripe.pay(id);
    jest.useFakeTimers();
    const { onClose, refresh } = show(id);
    await until(() => body().queryByText(t.success) !== null);
    expect(window.location.search).toBe("");
    expect(refresh).toHaveBeenCalledTimes(1);
    await act(async () => jest.advanceTimersByTime(1_999));
    expect(onClose).not.toHaveBeenCalled();
    await act(async () => jest.advanceTimersByTime(1));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  test("polled every 2 s, at most 10 times, then the timeout message", async () => {
    const id = await checkoutSession(); // never paid
    jest.useFakeTimers();
    const { onClose } = show(id);
    await until(() => polls() === 1);
    for (let n = 2; n <= 10; n++) {
      await act(async () => jest.advanceTimersByTime(1_999));
      expect(polls()).toBe(n - 1);
      await act(async () => jest.advanceTimersByTime(1));
      await until(() => polls() === n);
    }
    await until(() => body().queryByRole("alert") !== null);
    expect(body().getByRole("alert").textContent).toBe("Délai de vérification dépassé. Veuillez vérifier votre compte ou contacter le support.");
    await act(async () => jest.advanceTimersByTime(10_000));
    expect(polls()).toBe(10);
    fireEvent.click(body().getByRole("button", { name: t.home }));
    expect(onClose).toHaveBeenCalled();
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
