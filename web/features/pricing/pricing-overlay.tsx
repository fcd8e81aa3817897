import { lazy, Suspense } from "react";
import type { PublicUser } from "../../../src/users/users.view.ts";

export type PublicUserLike = PublicUser;

// The overlay's code and CSS load on first open, not with the login screen.
const PricingBody = lazy(() => import("./pricing-body.tsx").then((m) => ({ default: m.PricingBody })));

/** docs/PRODUCT.md#pricing-overlay: the pricing and subscription overlay; renders nothing while closed. */
export function PricingOverlay({ open, user, onClose, onUserRefresh }: { open: boolean; user: PublicUserLike; onClose(): void; onUserRefresh(): Promise<void> }) {
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <PricingBody user={user} onClose={onClose} onUserRefresh={onUserRefresh} />
    </Suspense>
  );
}
