import { lazy, Suspense, useState } from "react";
import { fr } from "./i18n/fr.ts";
import type { EntryUrl } from "./lib/entry-url.ts";
import { AuthViews } from "./features/auth/auth-views.tsx";
import { SessionProvider } from "./features/session/session-context.tsx";
import { useSession } from "./features/session/use-session.ts";

// The signed-in app is a separate chunk: the login screen loads only what it shows.
// main.tsx starts fetching it before React mounts when a session is stored (the same import, so the same chunk).
export const loadAppShell = () => import("./features/layout/app-shell.tsx");
const AppShell = lazy(() => loadAppShell().then((m) => ({ default: m.AppShell })));

/** There is no router: the view is chosen by state and URL (docs/PRODUCT.md#screens). */
export function App({ entry }: { entry: EntryUrl }) {
  return (
    <SessionProvider>
      <Root entry={entry} />
    </SessionProvider>
  );
}

function Root({ entry }: { entry: EntryUrl }) {
  const { user } = useSession();
  const [reset, setReset] = useState(entry.reset);
  if (user && !reset) {
    return (
      <Suspense fallback={<FullPageLoading />}>
        <AppShell paymentSessionId={entry.paymentSessionId} />
      </Suspense>
    );
  }
  return <AuthViews initial={reset ? "reset" : "login"} resetToken={entry.resetToken} onLeaveReset={() => setReset(false)} />;
}

function FullPageLoading() {
  return (
    <div className="full-page-loading" role="status">
      <span className="spinner" aria-hidden="true" /> {fr.common.loading}
    </div>
  );
}
