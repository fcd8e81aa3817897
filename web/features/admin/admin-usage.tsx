import { useEffect, useState } from "react";
import type { UsageReport } from "../../lib/api-types.ts";
import { ErrorAlert } from "../../components/ui/error-alert.tsx";
import { preciseEuros } from "../../i18n/fr-live.ts";
import { frUsage as t } from "../../i18n/fr-usage.ts";
import { frDay } from "../../lib/format.ts";
import { adminErrorMessage } from "./admin-errors.ts";
import { fetchUsage } from "./admin.api.ts";
import { AdminWebUsage } from "./admin-web-usage.tsx";
import { UsageTable } from "./usage-table.tsx";

const number = new Intl.NumberFormat("fr-FR");
const percent = new Intl.NumberFormat("fr-FR", { style: "percent", maximumFractionDigits: 1 });
const ms = (v: number | null) => (v === null ? "—" : `${number.format(v)} ms`);

/** The dashboard's usage section: what the models did over 30 days, in answers, latency, tokens and euros. */
export function AdminUsage() {
  const [usage, setUsage] = useState<UsageReport | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    fetchUsage()
      .then((u) => live && setUsage(u))
      .catch((err) => live && setError(adminErrorMessage(err, t.error)));
    return () => {
      live = false;
    };
  }, []);

  if (error) return <ErrorAlert message={error} />;
  if (!usage) return null;
  return (
    <section aria-labelledby="admin-usage-title" className="admin-usage">
      <h3 id="admin-usage-title">{t.title}</h3>
      <dl className="admin-cards">
        <div className="admin-card">
          <dt>{t.spend}</dt>
          <dd>{preciseEuros.format(usage.spend.total_eur)}</dd>
        </div>
        <div className="admin-card">
          <dt>{t.probes}</dt>
          <dd>{preciseEuros.format(usage.spend.probes_eur)}</dd>
        </div>
        <div className="admin-card">
          <dt>{t.average}</dt>
          <dd>{preciseEuros.format(usage.spend.average_per_answer_eur)}</dd>
        </div>
      </dl>
      {usage.models.length === 0 && usage.answers_per_day.length === 0 ? <p className="muted">{t.none}</p> : null}
      {usage.answers_per_day.length ? (
        <UsageTable
          caption={t.answersPerDay}
          headers={[t.day, t.answers, t.failed, t.cost]}
          rows={usage.answers_per_day.map((d) => [frDay(d.day), d.answers, d.failed, preciseEuros.format(d.eur)])}
        />
      ) : null}
      {usage.models.length ? (
        <UsageTable
          caption={t.perModel}
          headers={[t.model, t.calls, t.success, t.p50, t.p95, t.tokensIn, t.tokensOut, t.cost]}
          rows={usage.models.map((m) => [
            t.modelNames[m.model] ?? m.model,
            m.calls,
            percent.format(m.success_rate),
            ms(m.p50_ms),
            ms(m.p95_ms),
            m.tokens_in,
            m.tokens_out,
            preciseEuros.format(m.eur),
          ])}
        />
      ) : null}
      {usage.top_users.length ? (
        <UsageTable
          caption={t.topUsers}
          headers={[t.user, t.answers, t.tokensIn, t.tokensOut]}
          rows={usage.top_users.map((u) => [u.email ?? `n° ${u.user_id}`, u.answers, u.tokens_in, u.tokens_out])}
        />
      ) : null}
      <AdminWebUsage web={usage.web_search} />
    </section>
  );
}
