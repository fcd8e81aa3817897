import type { PublicUser } from "../../lib/api-types.ts";
import { PLAN_ALLOWANCE, PLAN_NAMES } from "../../../src/contracts/pricing.ts";
import { fr } from "../../i18n/fr.ts";

const t = fr.quota;

/** The badge text and colour of docs/PRODUCT.md#quota-badge. */
export function quotaBadge(user: PublicUser): { text: string; level: "danger" | "warning" | "ok"; warning: string | null; title?: string } {
  const n = user.remaining_queries;
  const plan = user.subscription_type;
  if ((plan === "pro" || plan === "basic") && n > PLAN_ALLOWANCE[plan]) {
    // More than the monthly allowance the spec's 'N/30' counts against: extra requests (packs, bonuses) on top.
    // The total, said as such: remaining_queries does not split plan and extra.
    const name = PLAN_NAMES[plan];
    return { text: t.beyond(n, name), level: "ok", warning: null, title: t.beyondTitle(n, name) };
  }
  const text = plan === "pro" ? t.pro(n) : plan === "basic" ? t.basic(n) : plan === "expired" ? t.expired : t.trial(n, user.trial_days_remaining);
  const trialEnding = plan === "trial" && user.trial_days_remaining > 0 && user.trial_days_remaining <= 2;
  const level = plan === "expired" || n <= 0 ? "danger" : n <= 3 || trialEnding ? "warning" : "ok";
  const warnings: string[] = [];
  if (level === "warning" && n <= 3) warnings.push(t.low(n));
  if (level !== "danger" && trialEnding) warnings.push(t.trialEnding(user.trial_days_remaining));
  return { text, level, warning: warnings.length ? warnings.join(" · ") : null };
}

/** Clickable: opens the pricing overlay (docs/PRODUCT.md#quota-badge). */
export function QuotaBadge({ user, onClick }: { user: PublicUser; onClick(): void }) {
  const b = quotaBadge(user);
  return (
    <button
      type="button"
      className={`quota-badge ${b.level}`}
      onClick={onClick}
      title={b.title ? `${b.title}. ${t.open}` : t.open}
      aria-label={`${b.text}${b.title ? ` : ${b.title}` : ""}${b.warning ? ` — ${b.warning}` : ""}. ${t.open}`}
    >
      <span className="quota-text">{b.text}</span>
      {b.warning && <span className="quota-warning">{b.warning}</span>}
    </button>
  );
}
