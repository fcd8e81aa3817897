import { toInt } from "./form.ts";
import { missing, newId, StripeError } from "./errors.ts";

/**
 * Money going back at the fake Stripe: the charge of every payment, refunds
 * (full or partial, as the API or the dashboard makes them) and disputes
 * (their status moved by the test). FakeStripeState extends it.
 */
export class FakeStripeMoney {
  charges = new Map<string, any>();
  refunds = new Map<string, any>();
  disputes = new Map<string, any>();

  constructor(protected readonly nowS: () => number) {}

  get<T>(map: Map<string, T>, kind: string, id: string): T {
    const v = map.get(id);
    if (!v) throw missing(kind, id);
    return v;
  }

  createCharge(pi: string, amount: number, customer: string | null) {
    const ch = {
      id: newId("ch"),
      object: "charge",
      payment_intent: pi,
      amount,
      amount_refunded: 0,
      refunded: false,
      disputed: false,
      currency: "eur",
      customer,
      status: "succeeded",
      paid: true,
      created: this.nowS(),
    };
    this.charges.set(ch.id, ch);
    return ch;
  }

  chargeOf(pi: string) {
    const ch = [...this.charges.values()].find((c) => c.payment_intent === pi);
    if (!ch) throw new StripeError(400, "invalid_request_error", `No charge for payment_intent ${pi}.`);
    return ch;
  }

  /** A refund (full when amount is left out), as POST /v1/refunds or the dashboard makes it. */
  createRefund(p: any) {
    const ch = p.charge ? this.get(this.charges, "charge", p.charge) : this.chargeOf(p.payment_intent);
    const amount = toInt(p.amount) ?? ch.amount - ch.amount_refunded;
    if (amount <= 0 || ch.amount_refunded + amount > ch.amount)
      throw new StripeError(400, "invalid_request_error", "Charge already refunded.", "charge_already_refunded");
    ch.amount_refunded += amount;
    ch.refunded = ch.amount_refunded >= ch.amount;
    const r = {
      id: newId("re"),
      object: "refund",
      amount,
      charge: ch.id,
      payment_intent: ch.payment_intent,
      status: "succeeded",
      reason: p.reason ?? null,
      metadata: p.metadata ?? {},
      created: this.nowS(),
    };
    this.refunds.set(r.id, r);
    return r;
  }

  /** A chargeback on a payment; its status moves with setDispute(). */
  createDispute(pi: string, status = "needs_response") {
    const ch = this.chargeOf(pi);
    ch.disputed = true;
    const d = {
      id: newId("dp"),
      object: "dispute",
      charge: ch.id,
      payment_intent: pi,
      amount: ch.amount,
      currency: "eur",
      status,
      reason: "fraudulent",
      created: this.nowS(),
    };
    this.disputes.set(d.id, d);
    return d;
  }
}
