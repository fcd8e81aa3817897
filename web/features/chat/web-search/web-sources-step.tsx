import { frWebSearch as t } from "../../../i18n/fr-web.ts";
import type { LiveWeb } from "../live/live-state.ts";
import "./web-search.css";

/** The live step of a run with web search: « Recherche sur le web… », then the sources every member reads, as links. */
export function WebSourcesStep({ web }: { web: LiveWeb }) {
  if (web.searching) return <p className="muted small web-step">{t.searching}</p>;
  if (web.notice) return <p className="muted small web-step">{web.notice}</p>;
  return (
    <div className="web-step">
      <p className="muted small">{t.found(web.sources.length)}</p>
      <ol className="web-sources" aria-label={t.sourcesLabel}>
        {web.sources.map((s) => (
          <li key={s.n}>
            <a href={s.url} target="_blank" rel="noopener noreferrer nofollow">
              {s.title}
            </a>{" "}
            <span className="muted small">{s.domain}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}
