import { lazy, Suspense } from "react";
import type { PublicUser } from "../../lib/api-types.ts";
import { fr } from "../../i18n/fr.ts";

export type PublicUserLike = PublicUser;

// The panel's code and CSS load only when it opens: nothing of it weighs on the login screen.
const AdminBody = lazy(() => import("./admin-body.tsx").then((m) => ({ default: m.AdminBody })));

/** Spec section 2: the admin panel (dashboard and users tabs); non-admins get the access-denied screen. */
export function AdminPanel({ user, onBack }: { user: PublicUserLike; onBack(): void }) {
  return (
    <Suspense fallback={<p className="muted admin-loading">{fr.admin.loading}</p>}>
      <AdminBody user={user} onBack={onBack} />
    </Suspense>
  );
}
