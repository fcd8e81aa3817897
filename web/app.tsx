import { Suspense, useState } from "react";
import { fr } from "./i18n/fr.ts";
import { chunkView } from "./lib/chunk-view.tsx";
import type { EntryUrl } from "./lib/entry-url.ts";
import { readStoredSession } from "./lib/storage.ts";
import { SessionProvider } from "./features/session/session-context.tsx";
import { useSession } from "./features/session/use-session.ts";

// Two chunks, one per side of the sign-in: the login screen loads no code of the app and the app none of the login.
// index.html preloads the one the stored session calls for (scripts/boot-script.ts); main.tsx waits for it before mounting.
const appShell = chunkView(() => import("./features/layout/app-shell.tsx").then((m) => m.AppShell));
const authViews = chunkView(() => import("./features/auth/auth-views.tsx").then((m) => m.AuthViews));
// A shared copy (/partage/{token}) is its own screen, for anyone: no session needed, none changed.
const sharedPage = chunkView(() => import("./features/sharing/shared-page.tsx").then((m) => m.SharedPage));

/** The first screen is the app with a stored session, unless the address asks for a password reset. */
export const opensSignedIn = (entry: EntryUrl) => !!readStoredSession() && !entry.reset;

/** Starts the download of the first screen's chunk; resolves when it is here (or failed: Suspense then shows the loading state). */
export function preloadFirstScreen(entry: EntryUrl): Promise<unknown> {
  if (entry.sharedToken) return sharedPage.preload().catch(() => {});
  return (opensSignedIn(entry) ? appShell : authViews).preload().catch(() => {});
}

/** There is no router: the view is chosen by state and URL (docs/PRODUCT.md#screens). */
export function App({ entry }: { entry: EntryUrl }) {
  if (entry.sharedToken) {
    return (
      <Suspense fallback={<FullPageLoading />}>
        <sharedPage.View token={entry.sharedToken} />
      </Suspense>
    );
  }
  return (
    <SessionProvider>
      <Root entry={entry} />
    </SessionProvider>
  );
}

function Root({ entry }: { entry: EntryUrl }) {
  const { user } = useSession();
  const [reset, setReset] = useState(entry.reset);
  // Each view in a Suspense of its own, below this state: a view that waits for its chunk never resets `reset`.
  return (
    <Suspense fallback={<FullPageLoading />}>
      {user && !reset ? (
        <appShell.View paymentSessionId={entry.paymentSessionId} />
      ) : (
        <authViews.View initial={reset ? "reset" : "login"} resetToken={entry.resetToken} onLeaveReset={() => setReset(false)} />
      )}
    </Suspense>
  );
}

function FullPageLoading() {
  return (
    <div className="full-page-loading" role="status">
      <span className="spinner" aria-hidden="true" /> {fr.common.loading}
    </div>
  );
}
