import { useCallback, useEffect, useState } from "react";
import { Brand } from "../../components/ui/brand.tsx";
import { frSharing } from "../../i18n/fr-sharing.ts";
import { ApiError } from "../../lib/api.ts";
import { frLongDate } from "../../lib/format.ts";
import { Markdown } from "../chat/markdown.tsx";
import { fetchSharedCopy, type SharedCopy } from "./sharing.api.ts";
import "./sharing.css";

const t = frSharing.page;
/** Links out of a copy: a new tab, no access to this page, no Referer (the token is in this page's address), not endorsed. */
const LINK_REL = "noopener noreferrer nofollow ugc";

type State = { kind: "loading" } | { kind: "ready"; copy: SharedCopy } | { kind: "gone" } | { kind: "failed" };

/**
 * /partage/{token}: a read-only copy of a conversation, for anyone holding
 * the link, signed in or not (web/app.tsx shows it before any session
 * screen). The server already answered 404 for a link that opens nothing;
 * one revoked since then reads « révoqué » here too.
 */
export function SharedPage({ token }: { token: string }) {
  const [state, setState] = useState<State>({ kind: "loading" });
  const load = useCallback(async () => {
    setState({ kind: "loading" });
    try {
      setState({ kind: "ready", copy: await fetchSharedCopy(token) });
    } catch (err) {
      setState(err instanceof ApiError && err.status === 404 ? { kind: "gone" } : { kind: "failed" });
    }
  }, [token]);
  useEffect(() => void load(), [load]);

  return (
    <div className="shared-page">
      <header className="shared-header">
        <a href="/" className="shared-brand">
          <Brand compact />
        </a>
      </header>
      <main className="shared-main">
        {state.kind === "loading" && (
          <p className="muted" role="status">
            <span className="spinner" aria-hidden="true" />
          </p>
        )}
        {state.kind === "gone" && <p className="alert error">{t.notFound}</p>}
        {state.kind === "failed" && (
          <>
            <p className="alert error">{t.error}</p>
            <button type="button" className="secondary" onClick={() => void load()}>
              {t.retry}
            </button>
          </>
        )}
        {state.kind === "ready" && <Copy copy={state.copy} />}
        <p className="shared-footer">
          <a href="/">{t.discover}</a>
        </p>
      </main>
    </div>
  );
}

function Copy({ copy }: { copy: SharedCopy }) {
  useEffect(() => {
    document.title = `${copy.title} · Unisson`;
  }, [copy.title]);
  return (
    <>
      <p className="shared-banner" role="note">
        <strong>{t.banner}</strong> {t.sharedOn(frLongDate(copy.shared_at))} {t.caution}
      </p>
      <h1 className="shared-title">{copy.title}</h1>
      {copy.turns.map((turn, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a frozen list, never reordered.
        <article className="shared-turn card" key={i} aria-label={`${t.question} ${i + 1}`}>
          <h2 className="shared-label">{t.question}</h2>
          <p className="shared-question">{turn.question}</p>
          {turn.answer !== null && (
            <>
              <h2 className="shared-label">{t.answer}</h2>
              <Markdown text={turn.answer} />
            </>
          )}
          {turn.sources.length > 0 && (
            <>
              <h3 className="shared-label">{t.sources}</h3>
              <ul className="shared-sources">
                {turn.sources.map((url) => (
                  <li key={url}>
                    <a href={url} rel={LINK_REL} target="_blank">
                      {url}
                    </a>
                  </li>
                ))}
              </ul>
            </>
          )}
          {turn.models?.map((m) => (
            <details key={m.name} className="shared-model">
              <summary>{t.modelAnswer(m.name)}</summary>
              <Markdown text={m.answer} />
            </details>
          ))}
        </article>
      ))}
    </>
  );
}
