import { toInt } from "./form.ts";
import { missing, newId, StripeError } from "./errors.ts";
import { FakeStripeMoney } from "./money.ts";

export { missing, newId, StripeError } from "./errors.ts";

/** In-memory Stripe objects, shaped like the real API's JSON (each with its `object` field). */
/** Stripe bills on calendar months: the same day of the next month (or year). */
function periodEndS(startS: number, interval: string | undefined): number {
  const d = new Date(startS * 1000);
  d.setUTCMonth(d.getUTCMonth() + (interval === "year" ? 12 : 1));
  return Math.floor(d.getTime() / 1000);
}

export class FakeStripeState extends FakeStripeMoney {
  customers = new Map<string, any>();
  products = new Map<string, any>();
  sessions = new Map<string, any>();
  subscriptions = new Map<string, any>();
  schedules = new Map<string, any>();
  coupons = new Map<string, any>();
  invoices = new Map<string, any>();
  /** payment_intent id -> invoice id (Stripe's invoice_payments). */
  invoicePayments = new Map<string, string>();
  /** Customers whose card is declined from now on (upgrades stay pending, renewals fail). */
  declining = new Set<string>();

  constructor(
    private readonly baseUrl: () => string,
    nowS: () => number,
  ) {
    super(nowS);
  }

  createCustomer(p: any) {
    const c = { id: newId("cus"), object: "customer", email: p.email ?? null, name: p.name ?? null, metadata: p.metadata ?? {}, created: this.nowS() };
    this.customers.set(c.id, c);
    return c;
  }

  createProduct(p: any) {
    const id = p.id ?? newId("prod");
    if (this.products.has(id)) throw new StripeError(400, "invalid_request_error", `Product already exists.`, "resource_already_exists", "id");
    const prod = { id, object: "product", name: p.name, active: true, metadata: p.metadata ?? {}, created: this.nowS() };
    this.products.set(id, prod);
    return prod;
  }

  /** A Price object from inline price_data (real Stripe creates one per use, too). */
  price(pd: any) {
    if (!pd?.currency || toInt(pd.unit_amount) === undefined)
      throw new StripeError(400, "invalid_request_error", "Missing required param: price_data.", undefined, "price_data");
    if (pd.product && !this.products.has(pd.product)) throw missing("product", pd.product);
    return {
      id: newId("price"),
      object: "price",
      currency: pd.currency,
      unit_amount: toInt(pd.unit_amount)!,
      product: pd.product ?? newId("prod"),
      recurring: pd.recurring ? { interval: pd.recurring.interval, interval_count: toInt(pd.recurring.interval_count) ?? 1 } : null,
      type: pd.recurring ? "recurring" : "one_time",
    };
  }

  createSession(p: any) {
    if (!p.success_url) throw new StripeError(400, "invalid_request_error", "Missing required param: success_url.", undefined, "success_url");
    const line = p.line_items?.[0];
    const price = this.price(line?.price_data);
    if ((p.mode === "subscription") !== !!price.recurring)
      throw new StripeError(400, "invalid_request_error", "Price type does not match mode.", undefined, "mode");
    if (p.customer) this.get(this.customers, "customer", p.customer);
    const couponId = p.discounts?.[0]?.coupon;
    const coupon = couponId ? this.get(this.coupons, "coupon", couponId) : null;
    const subtotal = price.unit_amount * (toInt(line.quantity) ?? 1);
    const total = coupon ? Math.round(subtotal * (1 - coupon.percent_off / 100)) : subtotal;
    const id = newId("cs");
    const s = {
      id,
      object: "checkout.session",
      mode: p.mode,
      customer: p.customer ?? null,
      client_reference_id: p.client_reference_id ?? null,
      metadata: p.metadata ?? {},
      amount_subtotal: subtotal,
      amount_total: total,
      currency: price.currency,
      payment_status: "unpaid",
      status: "open",
      url: `${this.baseUrl()}/checkout/${id}`,
      success_url: p.success_url,
      cancel_url: p.cancel_url ?? null,
      subscription: null as string | null,
      invoice: null as string | null,
      payment_intent: null as string | null,
      locale: p.locale ?? null,
      discounts: coupon ? [{ coupon: coupon.id }] : [],
      created: this.nowS(),
      _price: price,
      _subscriptionMetadata: p.subscription_data?.metadata ?? {},
    };
    this.sessions.set(id, s);
    return s;
  }

  /** What the customer's payment does at Stripe: session complete, subscription and first invoice made. */
  pay(id: string) {
    const s = this.get(this.sessions, "checkout.session", id);
    if (s.status === "complete") return s;
    const pi = newId("pi");
    s.status = "complete";
    s.payment_status = "paid";
    if (s.mode === "subscription") {
      const sub = this.createSubscription(s);
      s.subscription = sub.id;
      const inv = this.createInvoice(sub, "subscription_create", s.amount_total, pi);
      s.invoice = inv.id;
    } else {
      s.payment_intent = pi;
      this.createCharge(pi, s.amount_total, s.customer);
    }
    return s;
  }

  expire(id: string) {
    const s = this.get(this.sessions, "checkout.session", id);
    s.status = "expired";
    return s;
  }

  createSubscription(s: any) {
    const start = this.nowS();
    const end = periodEndS(start, s._price.recurring.interval);
    const sub = {
      id: newId("sub"),
      object: "subscription",
      customer: s.customer,
      status: "active",
      cancel_at_period_end: false,
      canceled_at: null,
      metadata: s._subscriptionMetadata,
      schedule: null as string | null,
      start_date: start,
      created: start,
      latest_invoice: null as string | null,
      pending_update: null as any,
      ended_at: null as number | null,
      items: {
        object: "list",
        has_more: false,
        url: "/v1/subscription_items",
        data: [{ id: newId("si"), object: "subscription_item", price: s._price, quantity: 1, current_period_start: start, current_period_end: end }],
      },
    };
    this.subscriptions.set(sub.id, sub);
    return sub;
  }

  createInvoice(sub: any, reason: string, amount: number, pi = newId("pi"), paid = true) {
    const item = sub.items.data[0];
    const inv = {
      id: newId("in"),
      object: "invoice",
      customer: sub.customer,
      status: paid ? "paid" : "open",
      billing_reason: reason,
      amount_paid: paid ? amount : 0,
      amount_due: amount,
      currency: "eur",
      subscription_id: sub.id,
      parent: { type: "subscription_details", quote_details: null, subscription_details: { subscription: sub.id, metadata: sub.metadata } },
      lines: {
        object: "list",
        has_more: false,
        url: "/v1/invoices/lines",
        data: [{ id: newId("il"), object: "line_item", amount, period: { start: item.current_period_start, end: item.current_period_end } }],
      },
      created: this.nowS(),
    };
    this.invoices.set(inv.id, inv);
    sub.latest_invoice = inv.id;
    if (paid) {
      this.invoicePayments.set(pi, inv.id);
      this.createCharge(pi, amount, sub.customer);
    }
    return inv;
  }

  /** A subscription object as the API answers it; `expand` may name latest_invoice. */
  publicSubscription(sub: any, expand: string[] = []) {
    const out = { ...sub };
    if (expand.includes("latest_invoice") && sub.latest_invoice) out.latest_invoice = publicInvoice(this.invoices.get(sub.latest_invoice));
    return out;
  }

  /** Cancels at once (DELETE /v1/subscriptions/:id, or the dashboard). */
  cancelSubscription(id: string) {
    const sub = this.get(this.subscriptions, "subscription", id);
    if (sub.status === "canceled") throw new StripeError(400, "invalid_request_error", "This subscription has already been canceled.", "resource_missing");
    sub.status = "canceled";
    sub.canceled_at = this.nowS();
    sub.ended_at = this.nowS();
    return sub;
  }

  /** Paged list, newest first, with starting_after like every Stripe list. */
  page(all: any[], query: URLSearchParams, url: string) {
    const sorted = [...all].sort((a, b) => b.created - a.created);
    const after = query.get("starting_after");
    const from = after ? sorted.findIndex((o) => o.id === after) + 1 : 0;
    const limit = toInt(query.get("limit")) ?? 10;
    const data = sorted.slice(from, from + limit);
    return { object: "list", data, has_more: from + limit < sorted.length, url };
  }

  /** The subscription's next period starts and its invoice is paid (the renewal that invoice.paid announces). */
  renew(subId: string) {
    const sub = this.get(this.subscriptions, "subscription", subId);
    const item = sub.items.data[0];
    const sched = sub.schedule ? this.schedules.get(sub.schedule) : null;
    const next = sched?.status === "active" ? sched.phases[1] : null;
    if (next) {
      // The schedule's next phase starts: its price replaces the item's, then the schedule is released.
      item.price = sched._prices.find((p: any) => p.id === next.items[0].price) ?? item.price;
      this.releaseSchedule(sched.id);
    }
    item.current_period_start = item.current_period_end;
    item.current_period_end = periodEndS(item.current_period_start, item.price.recurring?.interval);
    return this.createInvoice(sub, "subscription_cycle", item.price.unit_amount, newId("pi"), !this.declining.has(sub.customer));
  }

  updateSubscription(id: string, p: any) {
    const sub = this.get(this.subscriptions, "subscription", id);
    if (p.cancel_at_period_end !== undefined) sub.cancel_at_period_end = p.cancel_at_period_end === "true";
    if (p.metadata) sub.metadata = { ...sub.metadata, ...p.metadata };
    const change = p.items?.[0];
    if (change) {
      const item = sub.items.data.find((i: any) => i.id === change.id);
      if (!item) throw missing("subscription_item", change.id);
      const old = item.price;
      const price = change.price_data ? this.price(change.price_data) : item.price;
      const amount = Math.max(0, price.unit_amount - old.unit_amount);
      if (p.payment_behavior === "pending_if_incomplete" && this.declining.has(sub.customer)) {
        // The proration invoice is not paid: the change waits as a pending update, the items stay.
        this.createInvoice(sub, "subscription_update", amount, newId("pi"), false);
        sub.pending_update = { expires_at: this.nowS() + 23 * 3600, subscription_items: [{ id: item.id, price }] };
        return sub;
      }
      item.price = price;
      if (item.price.recurring?.interval !== old.recurring?.interval) {
        item.current_period_start = this.nowS();
        item.current_period_end = periodEndS(this.nowS(), item.price.recurring?.interval);
      }
      if (p.proration_behavior === "always_invoice") this.createInvoice(sub, "subscription_update", amount);
    }
    return sub;
  }

  createSchedule(p: any) {
    const sub = this.get(this.subscriptions, "subscription", p.from_subscription);
    if (sub.schedule) throw new StripeError(400, "invalid_request_error", "You cannot migrate a subscription that is already attached to a schedule.");
    const item = sub.items.data[0];
    const sched = {
      id: newId("sub_sched"),
      object: "subscription_schedule",
      subscription: sub.id,
      customer: sub.customer,
      status: "active",
      end_behavior: "release",
      released_subscription: null as string | null,
      phases: [{ start_date: item.current_period_start, end_date: item.current_period_end, items: [{ price: item.price.id, quantity: 1 }] }] as any[],
      _prices: [item.price],
    };
    sub.schedule = sched.id;
    this.schedules.set(sched.id, sched);
    return sched;
  }

  updateSchedule(id: string, p: any) {
    const sched = this.get(this.schedules, "subscription_schedule", id);
    if (sched.status !== "active") throw new StripeError(400, "invalid_request_error", "The schedule is not active.");
    if (p.end_behavior) sched.end_behavior = p.end_behavior;
    if (p.phases) {
      sched.phases = p.phases.map((ph: any) => ({
        start_date: toInt(ph.start_date) ?? null,
        end_date: toInt(ph.end_date) ?? null,
        duration: ph.duration ?? null,
        items: ph.items.map((i: any) => {
          if (i.price_data) {
            const price = this.price(i.price_data);
            sched._prices.push(price);
            return { price: price.id, quantity: toInt(i.quantity) ?? 1 };
          }
          return { price: i.price, quantity: toInt(i.quantity) ?? 1 };
        }),
      }));
    }
    return sched;
  }

  releaseSchedule(id: string) {
    const sched = this.get(this.schedules, "subscription_schedule", id);
    if (sched.status !== "active") throw new StripeError(400, "invalid_request_error", "The schedule is not active.");
    sched.status = "released";
    sched.released_subscription = sched.subscription;
    const sub = this.subscriptions.get(sched.subscription);
    if (sub) sub.schedule = null;
    return sched;
  }

  createCoupon(p: any) {
    const c = {
      id: p.id ?? newId("coupon").slice(0, 16),
      object: "coupon",
      percent_off: toInt(p.percent_off) ?? null,
      duration: p.duration ?? "once",
      name: p.name ?? null,
      max_redemptions: toInt(p.max_redemptions) ?? null,
      redeem_by: toInt(p.redeem_by) ?? null,
      times_redeemed: 0,
      valid: true,
      metadata: p.metadata ?? {},
    };
    if (!c.percent_off) throw new StripeError(400, "invalid_request_error", "Missing required param: percent_off.", undefined, "percent_off");
    this.coupons.set(c.id, c);
    return c;
  }
}

/** The JSON Stripe answers for an invoice: internal fields stripped. */
export function publicInvoice(i: any) {
  if (!i) return null;
  const { subscription_id, ...rest } = i;
  return rest;
}

/** The JSON Stripe answers for a session: internal fields stripped. */
export function publicSession(s: any) {
  const { _price, _subscriptionMetadata, ...rest } = s;
  return rest;
}
export function publicSchedule(s: any) {
  const { _prices, ...rest } = s;
  return rest;
}
