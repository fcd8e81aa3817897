import { type ComponentProps, Suspense } from "react";
import { fr } from "../../i18n/fr.ts";
import { chunkView } from "../../lib/chunk-view.tsx";
import type { HistoryView } from "./history-view.tsx";

/**
 * The history tab's code (the list, its virtualizer: half of the app's chunk)
 * loads when the tab is wanted (`preloadHistory`: pointer over or on the tab,
 * keyboard focus), not with the app screen.
 */
const historyView = chunkView<ComponentProps<typeof HistoryView>>(() => import("./history-view.tsx").then((m) => m.HistoryView));
export const preloadHistory = () => void historyView.preload().catch(() => {});

export function HistoryTab(props: ComponentProps<typeof HistoryView>) {
  return (
    <Suspense fallback={<HistoryLoading />}>
      <historyView.View {...props} />
    </Suspense>
  );
}

/** The view's own loading state, in its card: the list's loading line under the same title. */
function HistoryLoading() {
  return (
    <div className="history-layout">
      <section className="card" aria-labelledby="history-title">
        <h1 id="history-title">{fr.history.title}</h1>
        <p className="muted" role="status">
          <span className="spinner" aria-hidden="true" /> {fr.common.loading}
        </p>
      </section>
    </div>
  );
}
