/**
 * What the address bar asks for when the page loads (there is no router,
 * docs/PRODUCT.md#screens): a reset token, a reset-password path, a Stripe session_id.
 * Read once at start; the one-time parameters are removed from the address
 * so a reload or a shared link does not replay them.
 */
export type EntryUrl = { reset: boolean; resetToken: string | null; paymentSessionId: string | null };

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
  return { reset, resetToken, paymentSessionId };
}

/** After sign-in or when leaving the reset screen: the only path the app shows is '/'. */
export function goHome(history: History = window.history): void {
  if (window.location.pathname !== "/" || window.location.search) history.replaceState(null, "", "/");
}
