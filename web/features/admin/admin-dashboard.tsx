import { useEffect, useState } from "react";
import type { AdminStats } from "../../lib/api-types.ts";
import { fr } from "../../i18n/fr.ts";
import { ApiError } from "../../lib/api.ts";
import { formatEuros } from "../../../src/contracts/pricing.ts";
import { adminErrorMessage } from "./admin-errors.ts";
import { fetchStats } from "./admin.api.ts";
import { PLANS } from "./admin-validation.ts";
import { ErrorAlert } from "../../components/ui/error-alert.tsx";
import { AdminUsage } from "./admin-usage.tsx";

const t = fr.admin.stats;

export function AdminDashboard({ onForbidden }: { onForbidden(): void }) {
  const [stats, setStats] = useState<AdminStats | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    fetchStats()
      .then((s) => live && setStats(s))
      .catch((err) => {
        if (!live) return;
        if (err instanceof ApiError && err.status === 403) onForbidden();
        setError(adminErrorMessage(err, fr.admin.errors.stats));
      });
    return () => {
      live = false;
    };
  }, [onForbidden]);

  if (error) return <ErrorAlert message={error} />;
  if (!stats) return <p className="muted">{fr.admin.loading}</p>;

  const cards = [
    { label: t.totalUsers, value: String(stats.total_users) },
    // total_revenue is in euros; shown in the same French money format as prices.
    { label: t.revenue, value: formatEuros(Math.round(stats.total_revenue * 100)) },
    { label: t.purchases, value: String(stats.completed_purchases) },
    { label: t.recent, value: String(stats.recent_users_7_days) },
  ];
  const byPlan = PLANS.map((p) => ({ plan: p, n: stats.users_by_subscription[p] ?? 0 }));
  const max = Math.max(1, ...byPlan.map((b) => b.n));

  return (
    <section aria-labelledby="admin-dash-title" className="admin-dashboard">
      <h2 id="admin-dash-title" className="u-visually-hidden">
        {fr.admin.tabs.dashboard}
      </h2>
      <dl className="admin-cards">
        {cards.map((c) => (
          <div key={c.label} className="admin-card">
            <dt>{c.label}</dt>
            <dd>{c.value}</dd>
          </div>
        ))}
      </dl>
      <figure className="admin-chart">
        <figcaption>{t.byPlan}</figcaption>
        {/* Plain CSS bars: each row is readable as text too (label and count), the bar is decoration. */}
        <ul aria-label={t.chartLabel}>
          {byPlan.map((b) => (
            <li key={b.plan} className="admin-bar-row">
              <span className="admin-bar-label">{fr.admin.plans[b.plan]}</span>
              <span className="admin-bar-track" aria-hidden="true">
                <span className={`admin-bar plan-${b.plan}${b.n === 0 ? " zero" : ""}`} style={{ width: `${(b.n / max) * 100}%` }} />
              </span>
              <span className="admin-bar-value">{b.n}</span>
            </li>
          ))}
        </ul>
      </figure>
      <AdminUsage />
    </section>
  );
}
