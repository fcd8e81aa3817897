import { fr } from "../../i18n/fr.ts";
import type { AiStatusValue } from "../chat/use-ai-status.ts";

const t = fr.history;

export function AiStatusGrid({ status }: { status: AiStatusValue }) {
  return (
    <section className="card" aria-labelledby="ai-status-title">
      <h2 id="ai-status-title">{t.statusTitle}</h2>
      <ul className="status-grid">
        {status.aiStatus.map((a) => (
          <li key={a.name} className={a.available ? "ok" : "ko"}>
            <span className={`dot ${a.available ? "ok" : "ko"}`} aria-hidden="true" />
            <span>{a.name}</span>
            <span className="small">{a.available ? t.available : t.unavailable}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
