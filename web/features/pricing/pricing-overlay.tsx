import { lazy, Suspense } from "react";
import type { PublicUser } from "../../lib/api-types.ts";

export type PublicUserLike = PublicUser;

// The overlay's code and CSS load on first open, not with the login screen.
const PricingBody = lazy(() => import("./pricing-body.tsx").then((m) => ({ default: m.PricingBody })));

/** Spec section 2: the pricing and subscription overlay; renders nothing while closed. */
export function PricingOverlay({ open, user, onClose, onUserRefresh }: { open: boolean; user: PublicUserLike; onClose(): void; onUserRefresh(): Promise<void> }) {
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <PricingBody user={user} onClose={onClose} onUserRefresh={onUserRefresh} />
    </Suspense>
  );
}
