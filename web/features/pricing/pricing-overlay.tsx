import { lazy, Suspense } from "react";
import type { PublicUser } from "../../lib/api-types.ts";

// The overlay's code and CSS load on first open, not with the login screen.
const PricingDialog = lazy(() => import("./pricing-dialog.tsx").then((m) => ({ default: m.PricingDialog })));

/** docs/PRODUCT.md#pricing-overlay: the pricing and subscription overlay; renders nothing while closed. */
export function PricingOverlay({ open, user, onClose, onUserRefresh }: { open: boolean; user: PublicUser; onClose(): void; onUserRefresh(): Promise<void> }) {
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <PricingDialog user={user} onClose={onClose} onUserRefresh={onUserRefresh} />
    </Suspense>
  );
}
