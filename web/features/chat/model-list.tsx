import { fr } from "../../i18n/fr.ts";
import type { AiStatusValue } from "./use-ai-status.ts";

const t = fr.chat;

/** The connected models before a conversation: name, specialty, provider, OK/KO (spec section 2). */
export function ModelList({ status }: { status: AiStatusValue }) {
  const up = new Map(status.aiStatus.map((a) => [a.name, a.available]));
  return (
    <section className="card models" aria-labelledby="models-title">
      <h2 id="models-title">
        {t.modelsTitle}{" "}
        {status.loaded && <span className="muted small">{fr.header.aiCount(status.available, status.total)}</span>}
      </h2>
      <ul className="model-list">
        {status.models.map((m) => {
          const ok = up.get(m.name) ?? false;
          return (
            <li key={m.name} className="model-row">
              <span className={`dot ${ok ? "ok" : "ko"}`} aria-hidden="true" />
              <span className="model-main">
                <strong>{m.name}</strong>
                <span className="muted small">{m.specialty || fr.models.defaultSpecialty}</span>
              </span>
              <span className="model-provider muted small">{m.provider}</span>
              <span className={`pill ${ok ? "ok" : "ko"}`}>{ok ? t.ok : t.ko}</span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
