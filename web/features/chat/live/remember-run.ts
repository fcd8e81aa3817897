/** The conversation whose run this tab follows, so that a reload re-attaches to it (sessionStorage: per tab). */
const KEY = "unisson_live_run";

export function rememberRun(id: number | null): void {
  try {
    if (id === null) sessionStorage.removeItem(KEY);
    else sessionStorage.setItem(KEY, String(id));
  } catch {
    // Storage refused (private mode): a reload then simply shows the conversation list.
  }
}

export function rememberedRun(): number | null {
  try {
    const n = Number(sessionStorage.getItem(KEY));
    return Number.isInteger(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}
