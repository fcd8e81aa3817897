import { lazy, Suspense } from "react";

// Loaded only when a Stripe redirect brings a session_id back.
const PaymentCheckDialog = lazy(() => import("./payment-check-dialog.tsx").then((m) => ({ default: m.PaymentCheckDialog })));

/**
 * docs/PRODUCT.md#payment: a session_id on the main page opens this verification
 * overlay. It removes session_id from the address bar, polls the checkout
 * status, refreshes the user when paid and closes 2 s later.
 */
export function PaymentReturn(props: { sessionId: string; onClose(): void; onUserRefresh(): Promise<void> }) {
  return (
    <Suspense fallback={null}>
      <PaymentCheckDialog {...props} />
    </Suspense>
  );
}
