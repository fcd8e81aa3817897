import type { EntryUrl } from "../../web/lib/entry-url.ts";
import { createTestApp } from "../helpers/app.ts";
import { routeFetchTo } from "./dom.ts";
import * as rtl from "./rtl.ts";

/** Renders the whole SPA against a fresh in-process app; call inside a test (after useDom's registration). */
export async function renderApp(opts: { entry?: Partial<EntryUrl>; env?: Record<string, string> } = {}) {
  const t = await createTestApp({ env: opts.env });
  const calls: string[] = [];
  const restore = routeFetchTo(t.app, calls);
  const { App } = await import("../../web/app.tsx");
  const entry: EntryUrl = { reset: false, resetToken: null, paymentSessionId: null, ...opts.entry };
  const view = rtl.render(<App entry={entry} />);
  return { ...t, ...rtl, view, calls, restore, q: rtl.within(document.body) };
}
