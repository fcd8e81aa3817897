import { lazy, Suspense } from "react";
import type { PublicUser } from "../../lib/api-types.ts";
import { fr } from "../../i18n/fr.ts";

// The panel's code and CSS load only when it opens: nothing of it weighs on the login screen.
const AdminScreen = lazy(() => import("./admin-screen.tsx").then((m) => ({ default: m.AdminScreen })));

/** docs/PRODUCT.md#admin: the admin panel (dashboard and users tabs); non-admins get the access-denied screen. */
export function AdminPanel({ user, onBack }: { user: PublicUser; onBack(): void }) {
  return (
    <Suspense fallback={<p className="muted admin-loading">{fr.admin.loading}</p>}>
      <AdminScreen user={user} onBack={onBack} />
    </Suspense>
  );
}
