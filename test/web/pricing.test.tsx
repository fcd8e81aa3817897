// First: the DOM must exist before react-dom loads.
import { flush, retype, type Routed, routeFetch, signIn, useDom, appWithStripe } from "./pricing-harness.ts";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, jest, mock, test } from "bun:test";
import { act, fireEvent, render, waitFor, within } from "@testing-library/react";
import type { NewUser } from "../../src/users/users.queries.ts";
import { PricingOverlay } from "../../web/features/pricing/pricing-overlay.tsx";
import { redirect } from "../../web/features/pricing/use-purchase.ts";
import { fr } from "../../web/i18n/fr.ts";
import { startFakeStripe, type FakeStripe } from "../fakes/stripe/server.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { makeUser } from "../helpers/fixtures.ts";

useDom();
const t = fr.pricing;
const body = () => within(document.body);
const text = (el: Element | null) => (el?.textContent ?? "").replace(/\s/g, " ");

let stripe: FakeStripe;
let ctx: TestApp;
let net: Routed;
let redirects: string[];
beforeAll(async () => {
  stripe = await startFakeStripe();
});
afterAll(() => stripe.stop());
beforeEach(async () => {
  ctx = (await appWithStripe(async () => await createTestApp({ env: stripe.env }))) as TestApp;
  net = routeFetch(ctx.app);
  redirects = [];
  redirect.to = (url) => redirects.push(url);
});
afterEach(() => {
  net.restore();
  jest.useRealTimers();
});

/** Renders the overlay for a user made with `values`; resolves once the cards are there. */
async function open(values: Partial<NewUser> = {}, app = ctx) {
  const { user, token } = await makeUser(app.db, app.clock.now(), values);
  const me = signIn(user, token, app.clock.now());
  const refresh = mock(async () => {});
  const onClose = mock(() => {});
  const view = render(<PricingOverlay open user={me} onClose={onClose} onUserRefresh={refresh} />);
  await body().findByRole("heading", { name: t.title });
  await flush();
  return { me, token, refresh, onClose, view };
}
/** A subscriber at the shared fake Stripe: request-change acts on a Stripe subscription only (issue 12). */
function subscribedAt(plan: "basic" | "pro"): Partial<NewUser> {
  const product = `unisson_${plan}`;
  if (!stripe.state.products.has(product)) stripe.state.createProduct({ id: product, name: plan });
  const customer = stripe.state.createCustomer({});
  const session = stripe.state.createSession({
    mode: "subscription",
    customer: customer.id,
    success_url: "http://localhost/",
    line_items: [{ price_data: { currency: "eur", product, unit_amount: plan === "pro" ? "2990" : "1199", recurring: { interval: "month" } } }],
  });
  const subId = stripe.state.pay(session.id).subscription as string;
  const item = stripe.state.subscriptions.get(subId)!.items.data[0];
  return {
    subscriptionType: plan,
    billingCycle: "monthly",
    stripeCustomerId: customer.id,
    stripeSubscriptionId: subId,
    planStartedAt: new Date(item.current_period_start * 1000),
    periodEndsAt: new Date(item.current_period_end * 1000),
  };
}
const cardTitles = () =>
  body()
    .queryAllByRole("heading", { level: 3 })
    .map((h) => h.textContent)
    .filter((n) => n === "Basic" || n === "Pro");
const choose = (plan: string) => fireEvent.click(body().getByRole("button", { name: `Choisir ${plan}` }));
const notice = async () => text(await body().findByRole("alert"));

describe("offers and sections per plan (docs/PRODUCT.md#offers)", () => {
  test("trial and expired users see every offer, no pack, no management", async () => {
    await open();
    expect(cardTitles()).toEqual(["Basic", "Pro"]);
    expect(body().queryByText(t.pack.title)).toBeNull();
    expect(body().queryByText(t.manage.title)).toBeNull();
  });

  test("basic with requests left sees all; out of requests only Pro", async () => {
    const a = await open({ subscriptionType: "basic" });
    expect(cardTitles()).toEqual(["Basic", "Pro"]);
    expect(body().getByText(t.pack.title)).toBeTruthy();
    expect(body().getByText(t.manage.title)).toBeTruthy();
    a.view.unmount();
    await open({ subscriptionType: "basic", planQueries: 0, extraQueries: 0 });
    expect(cardTitles()).toEqual(["Pro"]);
  });

  test("pro with requests left sees all; out of requests none, the pack still offered", async () => {
    const a = await open({ subscriptionType: "pro" });
    expect(cardTitles()).toEqual(["Basic", "Pro"]);
    a.view.unmount();
    await open({ subscriptionType: "pro", planQueries: 0, extraQueries: 0 });
    expect(cardTitles()).toEqual([]);
    expect(body().getByText(t.noOffers)).toBeTruthy();
    expect(body().getByRole("button", { name: t.pack.buy })).toBeTruthy();
  });

  test("prices in French format; annual with '2 mois gratuits' and the yearly totals 143,88 / 359,88; Pro is popular", async () => {
    await open();
    const basic = body().getByRole("heading", { name: "Basic" }).closest("li")!;
    expect(text(basic)).toContain("11,99 €/mois");
    fireEvent.click(body().getByRole("radio", { name: `${t.annual} ${t.annualBadge}` }));
    const annualBasic = text(body().getByRole("heading", { name: "Basic" }).closest("li"));
    const annualPro = body().getByRole("heading", { name: "Pro" }).closest("li")!;
    expect(annualBasic).toContain("119,00 €/an");
    expect(annualBasic).toContain("soit 9,92 €/mois");
    expect(annualBasic).toContain("143,88 €");
    expect(annualBasic).toContain("Économisez 23,88 €");
    expect(text(annualPro)).toContain("299,00 €/an");
    expect(text(annualPro)).toContain("359,88 €");
    expect(text(annualPro)).toContain(t.popular);
  });

  test("the change-plan list: price descending, cancel last, the current plan disabled", async () => {
    await open({ subscriptionType: "basic", billingCycle: "monthly" });
    const list = body().getByRole("heading", { name: t.manage.title }).parentElement!.querySelector("ul")!;
    const rows = [...list.querySelectorAll("li")].map((li) => li.querySelector(".change-name")!.firstChild!.textContent);
    expect(rows).toEqual(["Pro mensuel", "Pro annuel", "Basic mensuel", "Basic annuel", "Résilier au prochain renouvellement"]);
    const buttons = [...list.querySelectorAll("button")].map((b) => b.disabled);
    expect(buttons).toEqual([false, false, true, false, false]);
    // And on the cards: the current plan's button says so and is disabled.
    expect((body().getByRole("button", { name: t.currentPlan }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe("promo code", () => {
  test("upper case, checked 500 ms after the last keystroke, empty clears the result", async () => {
    await open();
    jest.useFakeTimers();
    const input = body().getByLabelText(t.promo.label) as HTMLInputElement;
    const validations = () => net.calls.filter((c) => c.includes("/promo/validate")).length;
    await retype(input, "ami", jest.advanceTimersByTime);
    expect(input.value).toBe("AMI");
    await act(async () => jest.advanceTimersByTime(400));
    expect(validations()).toBe(0);
    // Another keystroke restarts the 500 ms.
    await retype(input, "amix", jest.advanceTimersByTime);
    await act(async () => jest.advanceTimersByTime(400));
    expect(validations()).toBe(0);
    await act(async () => jest.advanceTimersByTime(100));
    await flush();
    expect(validations()).toBe(1);
    const verdict = document.getElementById("promo-result")!;
    expect(verdict.className).toContain("ko");
    expect(text(verdict).length).toBeGreaterThan(3); // the server's message for an unknown code
    await retype(input, "", jest.advanceTimersByTime);
    await act(async () => jest.advanceTimersByTime(1_000));
    await flush();
    expect(validations()).toBe(1);
    expect(text(document.getElementById("promo-result"))).toBe("");
  });

  test("a failed validation says so", async () => {
    await open();
    net.override((path) => (path.includes("/promo/validate") ? Promise.resolve(Response.json({ detail: "x" }, { status: 500 })) : undefined));
    await retype(body().getByLabelText(t.promo.label), "CODE1");
    expect(text(await body().findByText(t.promo.error))).toBe(t.promo.error);
  });
});

describe("buying (docs/PRODUCT.md#payment)", () => {
  test("signed out: 'Veuillez vous connecter pour effectuer un achat'", async () => {
    await open();
    localStorage.removeItem("unisson_token");
    choose("Basic");
    expect(await notice()).toBe("Veuillez vous connecter pour effectuer un achat");
  });

  test("checkout: redirect to the checkout_url", async () => {
    await open();
    choose("Pro");
    await waitFor(() => expect(redirects).toHaveLength(1));
    expect(redirects[0]).toStartWith(`${stripe.url}/checkout/cs_`);
  });

  test("401, 402 and 5xx alerts", async () => {
    const a = await open();
    localStorage.setItem("unisson_token", "y".repeat(40));
    choose("Basic");
    expect(await notice()).toBe("Session expirée. Veuillez vous reconnecter et réessayer.");
    a.view.unmount();

    const noStripe = await createTestApp();
    net.restore();
    net = routeFetch(noStripe.app);
    const b = await open({}, noStripe);
    choose("Basic");
    expect(await notice()).toBe("Problème de configuration de paiement. Contactez le support.");
    b.view.unmount();

    net.restore();
    net = routeFetch(ctx.app);
    await open();
    stripe.failNext("/v1/checkout/sessions", 500);
    choose("Basic");
    expect(await notice()).toBe("Erreur serveur temporaire. Veuillez réessayer dans quelques instants.");
  });

  const checkoutCalls = () => net.calls.filter((c) => c.includes("create-payment-intent")).length;

  test("network failure: one retry after 2 s, then the network alert", async () => {
    await open();
    net.override((path) => (path.includes("create-payment-intent") ? Promise.reject(new TypeError("Failed to fetch")) : undefined));
    jest.useFakeTimers();
    choose("Basic");
    await flush();
    expect(checkoutCalls()).toBe(1);
    await act(async () => jest.advanceTimersByTime(1_999));
    expect(checkoutCalls()).toBe(1);
    await act(async () => jest.advanceTimersByTime(1));
    await flush();
    expect(checkoutCalls()).toBe(2);
    expect(text(body().getByRole("alert"))).toBe("Problème de connexion réseau. Vérifiez votre connexion internet.");
  });

  test("timeout: 15 s, a retry 2 s later, then the timeout alert", async () => {
    await open();
    net.override((path) => (path.includes("create-payment-intent") ? new Promise<Response>(() => {}) : undefined));
    jest.useFakeTimers();
    choose("Basic");
    await flush();
    await act(async () => jest.advanceTimersByTime(15_000));
    await flush();
    expect(body().queryByRole("alert")).toBeNull();
    expect(checkoutCalls()).toBe(1);
    await act(async () => jest.advanceTimersByTime(2_000));
    await flush();
    expect(checkoutCalls()).toBe(2);
    await act(async () => jest.advanceTimersByTime(15_000));
    await flush();
    expect(text(body().getByRole("alert"))).toBe("Délai d'attente dépassé. Vérifiez votre connexion et réessayez.");
  });

  test("a first network failure then success: redirected after the retry", async () => {
    await open();
    let failures = 1;
    net.override((path) => (path.includes("create-payment-intent") && failures-- > 0 ? Promise.reject(new TypeError("offline")) : undefined));
    jest.useFakeTimers();
    choose("Basic");
    await flush();
    await act(async () => jest.advanceTimersByTime(2_000));
    jest.useRealTimers(); // the retry now talks to the fake Stripe over real sockets
    await waitFor(() => expect(redirects).toHaveLength(1));
    expect(checkoutCalls()).toBe(2);
  });

  test("a subscriber buying a subscription gets the change-plan flow, not a checkout", async () => {
    await open({ subscriptionType: "basic" });
    choose("Pro");
    const dialog = within(await body().findByRole("dialog", { name: /Confirmer le changement : Pro mensuel/ }));
    expect(dialog.getByText(t.confirm.upgrade)).toBeTruthy();
    expect(checkoutCalls()).toBe(0);
  });
});

describe("changing plan", () => {
  test("schedule a downgrade, see it pending with its date, cancel it", async () => {
    const { refresh } = await open(subscribedAt("pro"));
    fireEvent.click(body().getByRole("button", { name: "Choisir : Basic mensuel" }));
    const dialog = within(await body().findByRole("dialog", { name: /Basic mensuel/ }));
    await retype(dialog.getByLabelText(t.confirm.reason), "Trop cher");
    fireEvent.click(dialog.getByRole("button", { name: t.confirm.submit }));
    const ack = within(await body().findByRole("dialog", { name: t.ack.title }));
    expect(text(ack.getByRole("status"))).toStartWith("Votre passage au forfait Basic (mensuel) prendra effet le");
    fireEvent.click(ack.getByRole("button", { name: t.ack.ok }));
    expect(refresh).toHaveBeenCalled();
    const pending = await body().findByText(/Changement prévu : Basic \(facturation mensuelle\) le/);
    expect(pending).toBeTruthy();
    // While it is pending, no other change can be requested.
    expect(body().getByText(t.manage.pendingBlock)).toBeTruthy();
    expect((body().getByRole("button", { name: "Choisir : Pro annuel" }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(body().getByRole("button", { name: t.status.cancelChange }));
    expect(text(await body().findByText(t.status.cancelSuccess))).toBe("Votre demande de changement a été annulée.");
    await flush();
    expect(body().queryByText(/Changement prévu/)).toBeNull();
  });

  test("an upgrade is immediate and refreshes the user", async () => {
    const { refresh } = await open(subscribedAt("basic"));
    fireEvent.click(body().getByRole("button", { name: "Choisir : Pro annuel" }));
    fireEvent.click(within(await body().findByRole("dialog", { name: /Pro annuel/ })).getByRole("button", { name: t.confirm.submit }));
    const ack = within(await body().findByRole("dialog", { name: t.ack.title }));
    expect(text(ack.getByRole("status"))).toStartWith("Votre abonnement est passé au forfait Pro (annuel)");
    expect(refresh).toHaveBeenCalled();
  });

  test("change and cancel failures: the prefix and the server's detail", async () => {
    // The overlay believes the user is basic; the server knows a trial (no subscription to change).
    const { user, token } = await makeUser(ctx.db, ctx.clock.now());
    const me = { ...signIn(user, token, ctx.clock.now()), subscription_type: "basic" as const };
    localStorage.setItem("unisson_token", token);
    render(<PricingOverlay open user={me} onClose={() => {}} onUserRefresh={async () => {}} />);
    fireEvent.click(await body().findByRole("button", { name: "Choisir : Basic annuel" }));
    fireEvent.click(within(await body().findByRole("dialog", { name: /Basic annuel/ })).getByRole("button", { name: t.confirm.submit }));
    expect(await notice()).toStartWith("Erreur lors de la demande de changement: ");
  });
});
