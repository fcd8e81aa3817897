import { fr } from "../../i18n/fr.ts";
import type { AiStatusValue } from "./use-ai-status.ts";

const t = fr.chat;

/** The connected models before a conversation: name, specialty, provider, OK/KO (docs/PRODUCT.md#chat-screen). */
export function ModelList({ status }: { status: AiStatusValue }) {
  const up = new Map(status.aiStatus.map((a) => [a.name, a.available]));
  return (
    <section className="card models" aria-labelledby="models-title">
      <h2 id="models-title">
        {t.modelsTitle} <span className="muted small">{status.loaded ? fr.header.aiCount(status.available, status.total) : "\u00a0"}</span>
      </h2>
      <ul className="model-list">
        {status.models.length === 0 && <SkeletonRows />}
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

/** As many rows as the server has models, the size of the real ones, until the list arrives: nothing below moves. */
export const SKELETON_ROWS = 6;

function SkeletonRows() {
  return Array.from({ length: SKELETON_ROWS }, (_, i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholder rows.
    <li key={i} className="model-row skeleton" aria-hidden="true">
      <span className="dot" />
      <span className="model-main">
        <strong>\u00a0</strong>
        <span className="small">\u00a0</span>
      </span>
      <span className="model-provider small">\u00a0</span>
      <span className="pill">\u00a0</span>
    </li>
  ));
}
