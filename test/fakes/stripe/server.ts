import Stripe from "stripe";
import { decodeForm } from "./form.ts";
import { FakeStripeState, newId, publicInvoice, publicSchedule, publicSession, StripeError } from "./state.ts";

/**
 * A local Stripe for tests: speaks the REST wire protocol the real `stripe`
 * SDK uses (form-encoded requests, JSON objects with `object`, Stripe error
 * shapes) on 127.0.0.1, reached through STRIPE_API_BASE. It also serves a
 * hosted-checkout page (GET /checkout/{id}, a "Payer" button) so browser
 * tests can pay, and signs events the way Stripe does.
 */
export type FakeStripeOptions = {
  webhookSecret?: string;
  /** Where pay() and the "Payer" button deliver checkout.session.completed, when set. */
  webhookUrl?: string;
  /** Seconds since the epoch for created / period fields (tests pass their clock). */
  now?: () => number;
};

export const FAKE_SECRET_KEY = "sk_test_unisson_fake";
export const FAKE_WEBHOOK_SECRET = "whsec_unisson_fake";

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;

export async function startFakeStripe(opts: FakeStripeOptions = {}) {
  const webhookSecret = opts.webhookSecret ?? FAKE_WEBHOOK_SECRET;
  let url = "";
  const state = new FakeStripeState(() => url, opts.now ?? (() => Math.floor(Date.now() / 1000)));
  const requests: Array<{ method: string; path: string; body: Record<string, any>; query: URLSearchParams }> = [];
  const failures: Array<{ prefix: string; status: number; method?: string }> = [];
  const signer = new Stripe(FAKE_SECRET_KEY);
  let webhookUrl = opts.webhookUrl;

  function event(type: string, object: unknown) {
    return {
      id: newId("evt"),
      object: "event",
      api_version: "2026-10-28.endive",
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object },
    };
  }

  /** The body and Stripe-Signature header of an event, signed with the webhook secret. */
  async function sign(evt: unknown, secret = webhookSecret) {
    const body = JSON.stringify(evt);
    const signature = await signer.webhooks.generateTestHeaderStringAsync({ payload: body, secret });
    return { body, signature };
  }

  async function deliver(evt: unknown, target = webhookUrl) {
    if (!target) return undefined;
    const { body, signature } = await sign(evt);
    return fetch(target, { method: "POST", headers: { "content-type": "application/json", "stripe-signature": signature }, body });
  }

  /** The customer pays; with a webhook URL, checkout.session.completed is delivered before this returns. */
  async function pay(id: string) {
    const session = publicSession(state.pay(id));
    await deliver(event("checkout.session.completed", session));
    return session;
  }

  function api(method: string, path: string, body: Record<string, any>, query: URLSearchParams): unknown {
    const seg = path.split("/").filter(Boolean).slice(1); // drop "v1"
    const [a, b, c, d] = seg;
    const key = `${method} ${a}${b === "sessions" ? "/sessions" : ""}`;
    if (a === "customers") return method === "POST" ? state.createCustomer(body) : state.get(state.customers, "customer", b!);
    if (a === "products") return method === "POST" && !b ? state.createProduct(body) : state.get(state.products, "product", b!);
    if (a === "coupons" && method === "POST") return state.createCoupon(body);
    if (a === "checkout" && b === "sessions") {
      if (method === "POST" && !c) return publicSession(state.createSession(body));
      if (method === "GET" && !c) {
        const pi = query.get("payment_intent");
        const customer = query.get("customer");
        const status = query.get("status");
        const all = [...state.sessions.values()].filter(
          (s) => (!pi || s.payment_intent === pi) && (!customer || s.customer === customer) && (!status || s.status === status),
        );
        const list = state.page(all, query, "/v1/checkout/sessions");
        return { ...list, data: list.data.map(publicSession) };
      }
      if (method === "POST" && d === "expire") return publicSession(state.expire(c!));
      return publicSession(state.get(state.sessions, "checkout.session", c!));
    }
    if (a === "subscriptions") {
      const expand = [...query]
        .filter(([k]) => k.startsWith("expand"))
        .map(([, v]) => v)
        .concat(Object.values(body.expand ?? {}) as string[]);
      if (method === "GET" && !b) {
        const customer = query.get("customer");
        const status = query.get("status");
        const all = [...state.subscriptions.values()].filter(
          (s) => (!customer || s.customer === customer) && (status === "all" || (status ? s.status === status : s.status !== "canceled")),
        );
        const list = state.page(all, query, "/v1/subscriptions");
        return {
          ...list,
          data: list.data.map((s: any) =>
            state.publicSubscription(
              s,
              expand.map((e) => e.replace(/^data\./, "")),
            ),
          ),
        };
      }
      if (method === "DELETE") return state.publicSubscription(state.cancelSubscription(b!));
      if (method === "POST") return state.publicSubscription(state.updateSubscription(b!, body), expand);
      return state.publicSubscription(state.get(state.subscriptions, "subscription", b!), expand);
    }
    if (a === "charges" && method === "GET" && b) return state.get(state.charges, "charge", b);
    if (a === "disputes" && method === "GET" && b) return state.get(state.disputes, "dispute", b);
    if (a === "refunds") {
      if (method === "POST") return state.createRefund(body);
      const charge = query.get("charge");
      return state.page(
        [...state.refunds.values()].filter((r) => !charge || r.charge === charge),
        query,
        "/v1/refunds",
      );
    }
    if (a === "invoices" && method === "GET" && !b) {
      const status = query.get("status");
      const since = Number(query.get("created[gte]") ?? 0);
      const all = [...state.invoices.values()].filter((i) => (!status || i.status === status) && i.created >= since);
      const list = state.page(all, query, "/v1/invoices");
      return { ...list, data: list.data.map(publicInvoice) };
    }
    if (a === "subscription_schedules") {
      if (method === "POST" && !b) return publicSchedule(state.createSchedule(body));
      if (method === "POST" && c === "release") return publicSchedule(state.releaseSchedule(b!));
      if (method === "POST") return publicSchedule(state.updateSchedule(b!, body));
      return publicSchedule(state.get(state.schedules, "subscription_schedule", b!));
    }
    if (a === "invoices" && method === "GET" && b) return publicInvoice(state.get(state.invoices, "invoice", b));
    if (a === "invoice_payments" && method === "GET") {
      const pi = query.get("payment[payment_intent]");
      const invoice = query.get("invoice");
      const data = [...state.invoicePayments]
        .filter(([p, inv]) => (!pi || p === pi) && (!invoice || inv === invoice))
        .map(([p, inv]) => ({ id: newId("inpay"), object: "invoice_payment", invoice: inv, payment: { type: "payment_intent", payment_intent: p } }));
      return { object: "list", data, has_more: false, url: "/v1/invoice_payments" };
    }
    throw new StripeError(404, "invalid_request_error", `Unrecognized request URL (${key}).`);
  }

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const u = new URL(req.url);
      const checkout = u.pathname.match(/^\/checkout\/(cs_[A-Za-z0-9_]+)(\/pay)?$/);
      if (checkout) return checkoutPage(req.method, checkout[1]!, !!checkout[2]);
      const text = req.method === "GET" ? "" : await req.text();
      const body = decodeForm(text);
      requests.push({ method: req.method, path: u.pathname, body, query: u.searchParams });
      try {
        if (req.headers.get("authorization") !== `Bearer ${FAKE_SECRET_KEY}`) {
          throw new StripeError(401, "invalid_request_error", "Invalid API Key provided.");
        }
        const failure = failures.findIndex((f) => u.pathname.startsWith(f.prefix) && (!f.method || f.method === req.method));
        if (failure >= 0) {
          const [f] = failures.splice(failure, 1);
          throw new StripeError(
            f!.status,
            f!.status === 402 ? "card_error" : "api_error",
            "Simulated failure.",
            f!.status === 402 ? "card_declined" : undefined,
          );
        }
        return Response.json(api(req.method, u.pathname, body, u.searchParams), { headers: { "request-id": newId("req") } });
      } catch (e) {
        if (e instanceof StripeError) return Response.json(e.toJSON(), { status: e.status, headers: { "stripe-should-retry": "false" } });
        return Response.json({ error: { type: "api_error", message: String(e) } }, { status: 500, headers: { "stripe-should-retry": "false" } });
      }
    },
  });
  url = `http://127.0.0.1:${server.port}`;

  async function checkoutPage(method: string, id: string, paying: boolean): Promise<Response> {
    const s = state.sessions.get(id);
    if (!s) return new Response("Session inconnue", { status: 404 });
    if (paying && method === "POST") {
      await pay(id);
      return Response.redirect(s.success_url.replace("{CHECKOUT_SESSION_ID}", id), 303);
    }
    const amount = (s.amount_total / 100).toFixed(2).replace(".", ",");
    const html = `<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Paiement test</title></head><body>
<h1>Paiement (Stripe de test)</h1><p>Montant : <strong>${amount} €</strong> (${s.mode})</p>
<form method="post" action="/checkout/${id}/pay"><button type="submit">Payer</button></form>
<p><a href="${s.cancel_url ?? "/"}">Annuler</a></p></body></html>`;
    return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
  }

  return {
    url,
    /** Environment for the product: key, webhook secret and API base pointing here. */
    env: { STRIPE_SECRET_KEY: FAKE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_API_BASE: url },
    state,
    sessions: state.sessions,
    requests,
    pay,
    event,
    sign,
    deliver,
    setWebhookUrl: (target: string | undefined) => {
      webhookUrl = target;
    },
    /** The next request (of `method`, if given) whose path starts with `prefix` fails (500 api_error, or 402 card_error). */
    failNext: (prefix: string, status = 500, method?: string) => failures.push({ prefix, status, method }),
    stop: () => server.stop(true),
  };
}
