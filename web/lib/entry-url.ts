/**
 * What the address bar asks for when the page loads (there is no router,
 * docs/PRODUCT.md#screens): a reset token, a reset-password path, a Stripe session_id.
 * Read once at start; the one-time parameters are removed from the address
 * so a reload or a shared link does not replay them.
 */
export type EntryUrl = {
  reset: boolean;
  resetToken: string | null;
  paymentSessionId: string | null;
  /** /partage/{token}: a shared read-only copy (web/features/sharing/shared-page.tsx). */
  sharedToken?: string | null;
};

/** The token of a shared page's address, as the server routes it (src/sharing/sharing.routes.ts). */
export function sharedTokenOf(pathname: string): string | null {
  return /^\/partage\/([A-Za-z0-9_-]+)$/.exec(pathname)?.[1] ?? null;
}

export function readEntryUrl(loc: Location = window.location, history: History = window.history): EntryUrl {
  const url = new URL(loc.href);
  const resetToken = url.searchParams.get("token");
  const paymentSessionId = url.searchParams.get("session_id");
  const reset = !!resetToken || url.pathname.includes("reset-password");
  if (resetToken || paymentSessionId) {
    url.searchParams.delete("token");
    url.searchParams.delete("session_id");
    history.replaceState(history.state, "", url.pathname + url.search + url.hash);
  }
  return { reset, resetToken, paymentSessionId, sharedToken: sharedTokenOf(url.pathname) };
}

/** After sign-in or when leaving the reset screen: the only path the app shows is '/'. */
export function goHome(history: History = window.history): void {
  if (window.location.pathname !== "/" || window.location.search) history.replaceState(null, "", "/");
}
