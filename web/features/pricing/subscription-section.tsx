import type { PublicUser } from "../../lib/api-types.ts";
import { fr } from "../../i18n/fr.ts";
import { formatEuros } from "../../../src/contracts/pricing.ts";
import { fill, frLongDate } from "../../lib/format.ts";
import { type ChangeRow, changeRows, type Cycle, OFFERS } from "./offers.ts";
import type { SubscriptionInfo } from "../../lib/api-types.ts";

const t = fr.pricing;

/** A plan name as the status shows it: "Pro", "Basic", "Expiré" (the target of a cancellation). */
export function planLabel(plan: string, cycle?: string | null): string {
  const name = t.planNames[plan as keyof typeof t.planNames] ?? plan;
  return cycle === "annual" || cycle === "monthly" ? `${name} (${t.status.cycle[cycle].toLowerCase()})` : name;
}

export function rowLabel(r: ChangeRow): string {
  return r.product_type ? t.manage.options[r.product_type] : t.manage.options.cancel;
}

/** Current plan, cycle, renewal date and the pending change with its date and its cancel button. */
export function SubscriptionStatus({
  user,
  status,
  busy,
  onCancelChange,
}: {
  user: PublicUser;
  status: SubscriptionInfo | null;
  busy: boolean;
  onCancelChange(): void;
}) {
  const pending = status?.pending_change ?? null;
  return (
    <section className="pricing-section sub-status" aria-labelledby="sub-status-title">
      <h3 id="sub-status-title">{t.status.title}</h3>
      <p className="sub-plan">
        <span className={`plan-chip plan-${user.subscription_type}`}>{t.planBadges[user.subscription_type]}</span>
        {status?.current_billing_cycle && <span>{t.status.cycle[status.current_billing_cycle]}</span>}
      </p>
      <p>{fill(t.status.remaining, { count: user.remaining_queries })}</p>
      {status?.next_renewal_date && <p>{fill(t.status.renewal, { date: frLongDate(status.next_renewal_date) })}</p>}
      {pending && (
        <div className="sub-pending" role="status">
          <p>{fill(t.status.pending, { target: planLabel(pending.target_plan, pending.target_billing_cycle), date: frLongDate(pending.scheduled_date) })}</p>
          <button type="button" className="u-btn-outline" disabled={busy} onClick={onCancelChange}>
            {t.status.cancelChange}
          </button>
        </div>
      )}
    </section>
  );
}

/**
 * The change-plan list of docs/PRODUCT.md#plan-changes, sorted by yearly price descending,
 * cancel last; the current plan's button is disabled, and every button while
 * a change is pending (only cancelling it is allowed then).
 */
export function ChangePlanList({ user, cycle, pending, onSelect }: { user: PublicUser; cycle: Cycle | null; pending: boolean; onSelect(r: ChangeRow): void }) {
  const rows = changeRows(user.subscription_type, cycle);
  return (
    <section className="pricing-section" aria-labelledby="manage-title">
      <h3 id="manage-title">{t.manage.title}</h3>
      <p className="muted">{t.manage.text}</p>
      {pending && <p className="alert info">{t.manage.pendingBlock}</p>}
      <ul className="change-list">
        {rows.map((r) => (
          <li key={r.product_type ?? "cancel"} className={r.current ? "current" : r.product_type ? "" : "cancel"}>
            <span className="change-name">
              {rowLabel(r)}
              {r.current && <span className="change-current"> · {t.manage.current}</span>}
            </span>
            {r.product_type && (
              <span className="change-price">
                {formatEuros(OFFERS[r.product_type].price_cents)}
                {OFFERS[r.product_type].billing_cycle === "annual" ? t.perYear : t.perMonth}
              </span>
            )}
            <button
              type="button"
              className={r.product_type ? "u-btn-outline" : "u-btn-danger"}
              disabled={r.current || pending}
              aria-label={`${r.current ? t.currentPlan : t.manage.select} : ${rowLabel(r)}`}
              onClick={() => onSelect(r)}
            >
              {r.current ? t.currentPlan : t.manage.select}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
