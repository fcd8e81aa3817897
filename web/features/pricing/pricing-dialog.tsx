import { useEffect, useId, useRef, useState } from "react";
import type { PublicUser } from "../../lib/api-types.ts";
import { fr } from "../../i18n/fr.ts";
import { ApiError } from "../../lib/api.ts";
import { cancelChangeCall, requestChangeCall } from "./pricing.api.ts";
import { type ChangeAck, ChangeAckDialog, ChangeConfirmDialog } from "./change-dialogs.tsx";
import { Dialog } from "../../components/ui/dialog.tsx";
import { ApiKeysSection } from "../api-keys/api-keys-section.tsx";
import { type ChangeRow, changeRowFor, type Cycle, isUpgrade, packAvailableFor } from "./offers.ts";
import { PackSection } from "./pack-section.tsx";
import { CycleToggle, PlanCards } from "./plan-cards.tsx";
import { PromoField } from "./promo-field.tsx";
import { ChangePlanList, SubscriptionStatus } from "./subscription-section.tsx";
import { usePricing } from "./use-pricing.ts";
import { usePromo } from "./use-promo.ts";
import { type Notice, usePurchase } from "./use-purchase.ts";
import "./pricing.css";

const t = fr.pricing;
const detailOf = (err: unknown) => (err instanceof ApiError ? (err.detail ?? err.message) : err instanceof Error ? err.message : String(err));

/** The pricing and subscription overlay (docs/PRODUCT.md#pricing-overlay), loaded lazily by PricingOverlay. */
export function PricingDialog({ user, onClose, onUserRefresh }: { user: PublicUser; onClose(): void; onUserRefresh(): Promise<void> }) {
  const id = useId();
  const { priceOf, quotes, status, reload } = usePricing();
  const promo = usePromo();
  const [notice, setNotice] = useState<Notice>(null);
  const [chosenCycle, setCycle] = useState<Cycle | null>(null);
  const [changing, setChanging] = useState<ChangeRow | null>(null);
  const [ack, setAck] = useState<ChangeAck | null>(null);
  const [working, setWorking] = useState(false);

  const plan = user.subscription_type;
  const subscriber = plan === "basic" || plan === "pro";
  const currentCycle = subscriber ? (status?.current_billing_cycle ?? "monthly") : null;
  const cycle = chosenCycle ?? currentCycle ?? "monthly";
  const pending = Boolean(status?.pending_change);

  function openChange(row: ChangeRow | undefined) {
    if (!row || row.current) return;
    if (pending) return setNotice({ kind: "error", text: t.manage.pendingBlock });
    setNotice(null);
    setChanging(row);
  }

  const { buy, busy } = usePurchase({
    user,
    promoCode: promo.validCode,
    notify: setNotice,
    onChangeFlow: (p) => openChange(changeRowFor(plan, currentCycle, p)),
  });

  async function requestChange(row: ChangeRow, reason: string) {
    setWorking(true);
    try {
      const body = { target_subscription_type: row.target_plan, target_billing_cycle: row.target_billing_cycle, ...(reason ? { user_reason: reason } : {}) };
      const r = await requestChangeCall(body);
      setChanging(null);
      setAck({ message: r.message, scheduled_date: r.scheduled_date });
      await Promise.all([onUserRefresh(), reload()]);
    } catch (err) {
      setChanging(null);
      setNotice({ kind: "error", text: t.changeError + detailOf(err) });
    } finally {
      setWorking(false);
    }
  }

  async function cancelChange() {
    setWorking(true);
    try {
      await cancelChangeCall();
      setNotice({ kind: "success", text: t.status.cancelSuccess });
      await Promise.all([onUserRefresh(), reload()]);
    } catch (err) {
      setNotice({ kind: "error", text: t.status.cancelError + detailOf(err) });
    } finally {
      setWorking(false);
    }
  }

  return (
    <Dialog sheet labelledBy={`${id}-title`} onClose={onClose} className="pricing-dialog">
      <div className="pricing-head">
        <div>
          <h2 id={`${id}-title`}>{t.title}</h2>
          <p className="muted">{t.subtitle}</p>
        </div>
        <button type="button" className="pricing-close" aria-label={t.close} onClick={onClose}>
          ×
        </button>
      </div>
      {subscriber && <SubscriptionStatus user={user} status={status} busy={working} onCancelChange={cancelChange} />}
      <section className="pricing-section" aria-labelledby={`${id}-plans`}>
        <div className="pricing-plans-head">
          <h3 id={`${id}-plans`}>{t.plansTitle}</h3>
          <CycleToggle cycle={cycle} onChange={setCycle} />
        </div>
        <PlanCards user={user} cycle={cycle} currentCycle={currentCycle} priceOf={priceOf} quotes={quotes} busy={busy} onBuy={buy} />
      </section>
      <PricingNotice notice={notice} />
      <PromoField promo={promo} />
      {packAvailableFor(plan) && <PackSection price={priceOf("token_pack_10")} busy={busy} onBuy={() => buy("token_pack_10")} />}
      {subscriber && <ChangePlanList user={user} cycle={currentCycle} pending={pending} onSelect={openChange} />}
      <ApiKeysSection />
      {changing && (
        <ChangeConfirmDialog
          row={changing}
          upgrade={isUpgrade(plan, changing.target_plan)}
          renewalDate={status?.next_renewal_date ?? null}
          busy={working}
          onConfirm={(reason) => requestChange(changing, reason)}
          onCancel={() => setChanging(null)}
        />
      )}
      {ack && <ChangeAckDialog ack={ack} onClose={() => setAck(null)} />}
    </Dialog>
  );
}

/**
 * The outcome of a choice, in the flow under the plans (where the buttons are), scrolled into view when it
 * changes: it was a sticky toast at the dialog's bottom, which floated over the API-key box.
 */
function PricingNotice({ notice }: { notice: Notice }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (notice) ref.current?.scrollIntoView?.({ block: "nearest", behavior: "smooth" });
  }, [notice]);
  if (!notice) return null;
  return (
    <p ref={ref} className={`alert ${notice.kind} pricing-notice`} role={notice.kind === "error" ? "alert" : "status"}>
      {notice.text}
    </p>
  );
}
