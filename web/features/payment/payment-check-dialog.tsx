import { useEffect, useId } from "react";
import { fr } from "../../i18n/fr.ts";
import { fill } from "../../lib/format.ts";
import { Dialog } from "../../components/ui/dialog.tsx";
import { PAYMENT_TIMING, POLL_MAX_ATTEMPTS, usePaymentStatus } from "./use-payment-status.ts";
import "./payment.css";

const t = fr.payment;

/** Removes session_id from the address bar, so a reload does not verify the same payment again. */
export function dropSessionIdFromUrl() {
  const url = new URL(window.location.href);
  if (!url.searchParams.has("session_id")) return;
  url.searchParams.delete("session_id");
  window.history.replaceState(window.history.state, "", `${url.pathname}${url.search}${url.hash}`);
}

export function PaymentCheckDialog({ sessionId, onClose, onUserRefresh }: { sessionId: string; onClose(): void; onUserRefresh(): Promise<void> }) {
  const id = useId();
  const { phase, attempt } = usePaymentStatus(sessionId, onUserRefresh);

  useEffect(dropSessionIdFromUrl, []);

  useEffect(() => {
    if (phase !== "paid") return;
    const timer = setTimeout(onClose, PAYMENT_TIMING.closeAfterPaidMs);
    return () => clearTimeout(timer);
  }, [phase, onClose]);

  const failed = phase !== "checking" && phase !== "paid";
  const message = { checking: t.checking, paid: t.success, expired: t.expired, timeout: t.timeout, error: t.error, unconfigured: t.unconfigured }[phase];

  return (
    <Dialog sheet labelledBy={`${id}-title`} className="payment-dialog" onClose={phase === "checking" ? undefined : onClose}>
      <div className={`payment-icon payment-${phase}`} aria-hidden="true">
        {phase === "checking" ? <span className="payment-spinner" /> : phase === "paid" ? "✓" : "!"}
      </div>
      <h2 id={`${id}-title`}>{t.title}</h2>
      <p className={failed ? "alert error" : phase === "paid" ? "alert success" : "muted"} role={failed ? "alert" : "status"}>
        {message}
      </p>
      {phase === "checking" && <p className="muted payment-attempt">{fill(t.attempt, { n: attempt, max: POLL_MAX_ATTEMPTS })}</p>}
      {failed && (
        <button type="button" className="primary block" data-autofocus onClick={onClose}>
          {t.home}
        </button>
      )}
    </Dialog>
  );
}
