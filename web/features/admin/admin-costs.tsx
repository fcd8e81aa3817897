import { useEffect, useState } from "react";
import type { AiCosts } from "../../lib/api-types.ts";
import { frLive, preciseEuros } from "../../i18n/fr-live.ts";
import { fetchAiCosts } from "./admin.api.ts";

const t = frLive.costs;

/** AI spend of the last 30 days: total, per answer, per model, per day (GET /api/admin/ai-costs). */
export function AdminCosts() {
  const [costs, setCosts] = useState<AiCosts | null>(null);
  useEffect(() => {
    let live = true;
    fetchAiCosts()
      .then((c) => live && setCosts(c))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, []);
  if (!costs) return null;
  return (
    <section aria-labelledby="admin-costs-title" className="admin-costs">
      <h3 id="admin-costs-title">{t.title}</h3>
      <dl className="admin-cards">
        <div className="admin-card">
          <dt>{t.total}</dt>
          <dd>{preciseEuros.format(costs.total_eur)}</dd>
        </div>
        <div className="admin-card">
          <dt>{t.answers}</dt>
          <dd>{costs.answers}</dd>
        </div>
        <div className="admin-card">
          <dt>{t.average}</dt>
          <dd>{preciseEuros.format(costs.average_per_answer_eur)}</dd>
        </div>
      </dl>
      {costs.spend_by_model.length === 0 ? (
        <p className="muted">{t.none}</p>
      ) : (
        <div className="admin-costs-tables">
          <table>
            <caption>{t.byModel}</caption>
            <thead>
              <tr>
                <th scope="col">{t.model}</th>
                <th scope="col">{t.calls}</th>
                <th scope="col">{t.cost}</th>
              </tr>
            </thead>
            <tbody>
              {costs.spend_by_model.map((m) => (
                <tr key={m.model}>
                  <td>{m.model}</td>
                  <td>{m.calls}</td>
                  <td>{preciseEuros.format(m.eur)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <table>
            <caption>{t.byDay}</caption>
            <thead>
              <tr>
                <th scope="col">{t.day}</th>
                <th scope="col">{t.cost}</th>
              </tr>
            </thead>
            <tbody>
              {costs.spend_by_day.map((d) => (
                <tr key={d.day}>
                  <td>{d.day}</td>
                  <td>{preciseEuros.format(d.eur)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
