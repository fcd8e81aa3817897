import { first, transaction } from "../db/transaction.ts";
import { frBilling } from "../i18n/fr-billing.ts";
import { eq, isNotNull } from "drizzle-orm";
import type Stripe from "stripe";
import { purchases, type UserRow, users } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../lib/errors.ts";
import { DAY } from "../lib/clock.ts";
import { endPlan, noteBillingChange } from "./entitlements.ts";
import { requireStripe, stripeCall } from "./stripe-client.ts";
import {
  applySubscriptionState,
  cancelNow,
  claimInvoice,
  idOf,
  invoiceSubscription,
  isLive,
  planOfSubscription,
  settleDuplicate,
  stateOf,
} from "./subscription-sync.service.ts";

/**
 * Reconciliation (daily job, `unisson billing reconcile`): compares the
 * database with Stripe and fixes what Stripe says, so a missed or failed
 * webhook is never wrong for good. Stripe's lists are read page by page
 * (starting_after):
 * 1. every subscription: each is applied like an event would (plan, period,
 *    cancellation, duplicate: cancelled and refunded); a live subscription
 *    made by Unisson whose account is gone is cancelled;
 * 2. every account that names a subscription Stripe no longer lists;
 * 3. paid invoices of the last 35 days that no purchase row records.
 * With dryRun the same comparison runs inside a transaction rolled back:
 * every difference is reported, nothing is changed.
 */
export type Difference = { kind: string; user_id: number | null; email: string | null; stripe_ref: string; detail: string; fixed: boolean };
export type ReconcileReport = { dry_run: boolean; subscriptions_checked: number; invoices_checked: number; differences: Difference[] };

const PAGE = 100;
const INVOICE_WINDOW_DAYS = 35;
class DryRun extends Error {}

/** Every object of a Stripe list, page by page with starting_after. */
async function* paged<T extends { id: string }>(deps: Deps, what: string, list: (startingAfter?: string) => Promise<Stripe.ApiList<T>>): AsyncGenerator<T> {
  let after: string | undefined;
  for (;;) {
    const page = await stripeCall(deps.log, what, () => list(after));
    for (const item of page.data) yield item;
    if (!page.has_more || page.data.length === 0) return;
    after = page.data[page.data.length - 1]!.id;
  }
}

/** Runs `fn` in a transaction, rolled back on a dry run; returns its result either way. */
async function attempt<T>(deps: Deps, dryRun: boolean, fn: (deps: Deps) => Promise<T>): Promise<T> {
  let out!: T;
  try {
    await transaction(deps.db, async (tx) => {
      out = await fn({ ...deps, db: tx });
      if (dryRun) throw new DryRun();
    });
  } catch (e) {
    if (!(e instanceof DryRun)) throw e;
  }
  return out;
}

const snapshot = (u: UserRow | undefined) =>
  u ? frBilling.reconcile.snapshot(u.subscriptionType, u.billingCycle, u.periodEndsAt?.toISOString().slice(0, 10) ?? "—", u.stripeSubscriptionId) : "—";

export async function reconcile(deps: Deps, opts: { dryRun?: boolean; pageSize?: number } = {}): Promise<ReconcileReport> {
  if (!deps.stripe) throw new AppError("PAYMENTS_DISABLED", frBilling.reconcile.notConfigured);
  const stripe = requireStripe(deps.stripe);
  const { db, log } = deps;
  const dryRun = opts.dryRun ?? false;
  const limit = opts.pageSize ?? PAGE;
  const differences: Difference[] = [];
  const seen = new Set<string>();
  const userOf = async (id: number | undefined) => (id === undefined ? undefined : await first(db.select().from(users).where(eq(users.id, id))));
  const note = async (d: Omit<Difference, "fixed">, fixed: boolean) => {
    differences.push({ ...d, fixed });
    if (!dryRun && fixed)
      await noteBillingChange(db, deps.clock.now(), d.user_id, {
        actor: "reconcile",
        action: "reconcile",
        detail: `${d.kind} : ${d.detail}`,
        stripeRef: d.stripe_ref,
      });
  };

  // 1. Stripe's subscriptions, each applied as an event would.
  let subscriptions = 0;
  for await (const sub of paged(deps, "subscriptions.list", (after) =>
    stripe.subscriptions.list({ status: "all", limit, expand: ["data.latest_invoice"], ...(after ? { starting_after: after } : {}) }),
  )) {
    subscriptions++;
    seen.add(sub.id);
    const state = await stateOf(deps, sub);
    const before = await userOf(state.user?.id);
    if (!state.user) {
      if (isLive(sub.status) && sub.metadata?.user_id) {
        if (!dryRun) await cancelNow(deps, sub.id);
        await note(
          { kind: frBilling.reconcile.orphanKind, user_id: null, email: null, stripe_ref: sub.id, detail: frBilling.reconcile.orphan(sub.metadata.user_id) },
          !dryRun,
        );
      }
      continue;
    }
    const { outcome, after } = await attempt(deps, dryRun, async (txDeps) => ({
      outcome: await applySubscriptionState(txDeps, state, "reconcile", null),
      after: await first(txDeps.db.select().from(users).where(eq(users.id, state.user!.id))),
    }));
    if (outcome === "unchanged" || outcome === "orphan") continue;
    if (outcome === "duplicate") {
      if (!dryRun) await settleDuplicate(deps, state, "reconcile");
      await note(
        {
          kind: frBilling.reconcile.duplicateKind,
          user_id: before!.id,
          email: before!.email,
          stripe_ref: sub.id,
          detail: frBilling.reconcile.duplicate(String(state.otherLive)),
        },
        !dryRun,
      );
      continue;
    }
    const stripeSays = planOfSubscription(sub);
    await note(
      {
        kind:
          outcome === "ended"
            ? frBilling.reconcile.endedKind
            : snapshot(before) === snapshot(after)
              ? frBilling.reconcile.notCreditedKind
              : frBilling.reconcile.differentKind,
        user_id: before!.id,
        email: before!.email,
        stripe_ref: sub.id,
        detail: frBilling.reconcile.compare(
          sub.status,
          stripeSays ? frBilling.reconcile.stripeSays(stripeSays.plan, stripeSays.cycle, stripeSays.end.toISOString().slice(0, 10)) : null,
          snapshot(before),
          snapshot(after),
        ),
      },
      !dryRun,
    );
  }

  // 2. Accounts naming a subscription Stripe does not list any more.
  for (const u of await db.select().from(users).where(isNotNull(users.stripeSubscriptionId))) {
    if (seen.has(u.stripeSubscriptionId!)) continue;
    if (!dryRun)
      await attempt(
        deps,
        false,
        async ({ db: tx }) =>
          await endPlan(tx, deps.clock.now(), u.id, {
            actor: "reconcile",
            action: "plan",
            detail: frBilling.change.unknownToStripe(u.stripeSubscriptionId),
            stripeRef: u.stripeSubscriptionId,
          }),
      );
    await note(
      {
        kind: frBilling.reconcile.goneKind,
        user_id: u.id,
        email: u.email,
        stripe_ref: u.stripeSubscriptionId!,
        detail: frBilling.reconcile.gone(u.subscriptionType),
      },
      !dryRun,
    );
  }

  // 3. Paid invoices that no purchase records (a missed invoice.paid).
  let invoices = 0;
  const since = Math.floor((deps.clock.now().getTime() - INVOICE_WINDOW_DAYS * DAY) / 1000);
  for await (const invoice of paged(deps, "invoices.list", (after) =>
    stripe.invoices.list({ status: "paid", created: { gte: since }, limit, ...(after ? { starting_after: after } : {}) }),
  )) {
    invoices++;
    if (await first(db.select({ id: purchases.id }).from(purchases).where(eq(purchases.invoiceId, invoice.id)))) continue;
    const subId = invoiceSubscription(invoice);
    const owner = subId ? await first(db.select().from(users).where(eq(users.stripeSubscriptionId, subId))) : undefined;
    const plan = owner && (owner.subscriptionType === "basic" || owner.subscriptionType === "pro") ? owner.subscriptionType : null;
    if (!owner || !plan) {
      log.warn("paid invoice without a matching subscriber", { invoice: invoice.id, subscription: subId });
      continue;
    }
    if (!dryRun)
      await attempt(deps, false, async (txDeps) => await claimInvoice(txDeps, deps.clock.now(), owner.id, invoice, plan, owner.billingCycle ?? "monthly"));
    await note(
      {
        kind: frBilling.reconcile.unrecordedKind,
        user_id: owner.id,
        email: owner.email,
        stripe_ref: invoice.id,
        detail: frBilling.reconcile.unrecorded(String(idOf(invoice.id)), invoice.amount_paid / 100),
      },
      !dryRun,
    );
  }

  log.info("billing reconciled", { dry_run: dryRun, subscriptions, invoices, differences: differences.length });
  for (const d of differences) log.warn("billing difference", d);
  return { dry_run: dryRun, subscriptions_checked: subscriptions, invoices_checked: invoices, differences };
}
