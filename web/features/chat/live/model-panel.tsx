import { useState } from "react";
import type { Consolidation } from "../../../../src/contracts/answer.ts";
import { frLive, preciseEuros, REFUSAL_REASON } from "../../../i18n/fr-live.ts";

const t = frLive.panel;
const sec = (ms: number) => (ms / 1000).toLocaleString("fr-FR", { maximumFractionDigits: 1 });

/** Under a finished answer, on demand: each model's status, latency, tokens and cost, and what the answer cost. */
export function ModelPanel({ data }: { data: Record<string, unknown> | null }) {
  const [open, setOpen] = useState(false);
  const d = (data ?? {}) as Partial<Consolidation> & { charged?: boolean };
  const models = d.models;
  if (!Array.isArray(models)) return null;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/useKeyWithClickEvents: only keeps clicks inside from enlarging the message.
    <div className="model-panel" onClick={(e) => e.stopPropagation()}>
      <button type="button" className="link-button small" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        {t.toggle}
      </button>
      {open && (
        <div className="model-panel-body">
          <ul className="model-panel-list">
            {models.map((m) => {
              const status = m.status ?? (m.error ? "failed" : "answered");
              const figures = [
                status === "skipped" ? null : t.latency(sec(m.latency_ms)),
                m.tokens_in !== null || m.tokens_out !== null ? t.tokens(m.tokens_in, m.tokens_out) : null,
                typeof m.cost_eur === "number" && status !== "skipped" ? preciseEuros.format(m.cost_eur) : null,
              ].filter(Boolean);
              return (
                <li key={m.name} className={`status-${status}`}>
                  <span className="model-panel-name">{m.name}</span>
                  <span className="model-panel-status">
                    {m.error === REFUSAL_REASON ? frLive.run.declined : `${t.status[status] ?? ""}${m.error ? ` (${m.error})` : ""}`}
                  </span>
                  {figures.length > 0 && <span className="model-panel-figures">{figures.join(" · ")}</span>}
                </li>
              );
            })}
          </ul>
          <p className="muted small">
            {d.synthesis?.model ? `${t.synthesisBy(d.synthesis.model)} · ` : ""}
            {typeof d.cost_eur === "number" ? t.answerCost(preciseEuros.format(d.cost_eur)) : ""}
            {d.charged === false ? ` · ${t.notCharged}` : ""}
          </p>
        </div>
      )}
    </div>
  );
}
