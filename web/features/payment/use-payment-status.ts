import { useEffect, useRef, useState } from "react";
import { api, ApiError, unwrap } from "../../lib/api.ts";

/**
 * docs/PRODUCT.md#payment: the status is polled every 2 s, at most 10 times,
 * and the overlay closes 2 s after a paid status. An object, so a test can
 * shorten the waits and run the ten polls in real time.
 */
export const PAYMENT_TIMING = { pollIntervalMs: 2_000, closeAfterPaidMs: 2_000 };
export const POLL_MAX_ATTEMPTS = 10;

export type PaymentPhase = "checking" | "paid" | "expired" | "timeout" | "error" | "unconfigured";

/**
 * Polls GET /stripe/checkout-status/{session_id} until paid or expired.
 * A network blip or a 5xx counts as one more unsuccessful attempt (the server
 * may be restarting); any other refusal (unknown session, 401) ends at once
 * with the error message.
 */
export function usePaymentStatus(sessionId: string, onPaid: () => Promise<void>) {
  const [phase, setPhase] = useState<PaymentPhase>("checking");
  const [attempt, setAttempt] = useState(0);
  const onPaidRef = useRef(onPaid);
  onPaidRef.current = onPaid;

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;

    async function poll(n: number) {
      if (stopped) return;
      setAttempt(n);
      try {
        const s = await unwrap(api.stripe["checkout-status"][":session_id"].$get({ param: { session_id: sessionId } }));
        if (stopped) return;
        if (s.payment_status === "paid") {
          try {
            await onPaidRef.current();
          } catch {
            // The payment is recorded either way; the next refresh will show it.
          }
          if (!stopped) setPhase("paid");
          return;
        }
        if (s.status === "expired") return setPhase("expired");
      } catch (err) {
        if (stopped) return;
        // 402: this server has no Stripe key, so there is no payment to wait for.
        if (err instanceof ApiError && err.status === 402) return setPhase("unconfigured");
        if (err instanceof ApiError && err.status < 500) return setPhase("error");
      }
      if (n >= POLL_MAX_ATTEMPTS) return setPhase("timeout");
      timer = setTimeout(() => void poll(n + 1), PAYMENT_TIMING.pollIntervalMs);
    }

    void poll(1);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [sessionId]);

  return { phase, attempt };
}
