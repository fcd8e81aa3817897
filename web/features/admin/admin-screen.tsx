import { type KeyboardEvent, useCallback, useState } from "react";
import type { PublicUser } from "../../lib/api-types.ts";
import { fr } from "../../i18n/fr.ts";
import { AdminDashboard } from "./admin-dashboard.tsx";
import { AdminModels } from "./admin-models.tsx";
import { AdminUsers } from "./admin-users.tsx";
import "./admin.css";
import { ErrorAlert } from "../../components/ui/error-alert.tsx";

type Tab = "dashboard" | "users" | "models";
const TABS: readonly Tab[] = ["dashboard", "users", "models"];

/** Non-admins (the server would answer 403 anyway) see this instead of the panel. */
function AccessDenied({ onBack, detail }: { onBack(): void; detail: string | null }) {
  return (
    <main className="admin-panel admin-denied" aria-labelledby="admin-denied-title">
      <svg
        className="admin-denied-icon"
        viewBox="0 0 24 24"
        width="48"
        height="48"
        aria-hidden="true"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <rect x="4" y="11" width="16" height="10" rx="2" />
        <path d="M8 11V7a4 4 0 0 1 8 0v4" />
      </svg>
      <h1 id="admin-denied-title">{fr.admin.deniedTitle}</h1>
      <p>{fr.admin.deniedText}</p>
      <ErrorAlert message={detail} />
      <button type="button" className="primary" onClick={onBack}>
        {fr.admin.back}
      </button>
    </main>
  );
}

/** The admin panel proper (loaded lazily by AdminPanel): back button and three tabs. */
export function AdminScreen({ user, onBack }: { user: PublicUser; onBack(): void }) {
  const [tab, setTab] = useState<Tab>("dashboard");
  // The server has the last word: a 403 (rights removed meanwhile) shows the same screen.
  const [forbidden, setForbidden] = useState(false);
  const onForbidden = useCallback(() => setForbidden(true), []);
  if (!user.is_admin || forbidden) return <AccessDenied onBack={onBack} detail={forbidden ? fr.admin.errors.forbidden : null} />;

  function onTabKey(e: KeyboardEvent) {
    // The WAI-ARIA tabs pattern: arrows move between tabs.
    if (e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
    const next = TABS[(TABS.indexOf(tab) + (e.key === "ArrowRight" ? 1 : TABS.length - 1)) % TABS.length]!;
    setTab(next);
    document.getElementById(`admin-tab-${next}`)?.focus();
  }

  return (
    <main className="admin-panel" aria-labelledby="admin-title">
      <header className="admin-head">
        <button type="button" className="u-btn-outline" onClick={onBack}>
          ← {fr.admin.back}
        </button>
        <h1 id="admin-title">{fr.admin.title}</h1>
      </header>
      <div role="tablist" aria-label={fr.admin.title} className="admin-tabs" onKeyDown={onTabKey}>
        {TABS.map((k) => (
          <button
            key={k}
            id={`admin-tab-${k}`}
            type="button"
            role="tab"
            aria-selected={tab === k}
            aria-controls={`admin-panel-${k}`}
            tabIndex={tab === k ? 0 : -1}
            onClick={() => setTab(k)}
          >
            {fr.admin.tabs[k]}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`admin-panel-${tab}`} aria-labelledby={`admin-tab-${tab}`} className="admin-tabpanel">
        {tab === "dashboard" && <AdminDashboard onForbidden={onForbidden} />}
        {tab === "users" && <AdminUsers me={user} onForbidden={onForbidden} />}
        {tab === "models" && <AdminModels onForbidden={onForbidden} />}
      </div>
    </main>
  );
}
