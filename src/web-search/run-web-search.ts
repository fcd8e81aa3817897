import { randomBytes } from "node:crypto";
import type { AiCallLog } from "../ai/ai-calls.queries.ts";
import { insertAiCalls } from "../ai/ai-calls.queries.ts";
import type { RunCtx } from "../chat/answers.ts";
import type { Deps } from "../deps.ts";
import { frWeb } from "../i18n/fr-web.ts";
import type { WebSource } from "./web-sources.ts";

/** What a run's members and synthesiser get from the web search, and what the answer tells about it. */
export type RunWeb = { query: string; sources: WebSource[]; nonce: string; notice: string | null };

/** A source as events, stored answers and /v1 annotations show it: without the page's text. */
export function shownSource(s: WebSource) {
  return { n: s.n, title: s.title, url: s.url, domain: s.domain };
}

/**
 * The run's web search, before the members are asked: the question as the
 * user wrote it is what is searched (docs/DECISIONS.md, "Web search"). Each
 * search and each page fetched is a row of the cost ledger (ai_calls,
 * purposes web_search and web_fetch, no cost), counted per user and per day.
 * An outage or pages that cannot be read never fail the run: it goes on
 * without sources, with the notice.
 */
export async function webSourcesForRun(deps: Deps, query: string, ctx: RunCtx): Promise<RunWeb | null> {
  const web = deps.ai.web;
  if (!web) return null;
  ctx.live.emit("web_search_started", { query });
  const started = performance.now();
  const found = await web.find(query, ctx.live.abort.signal);
  // The whole step's time, on each of its rows: the pages are read in parallel, within the search's deadline.
  const latencyMs = Math.round(performance.now() - started);
  const now = deps.clock.now();
  const row = (purpose: "web_search" | "web_fetch", ok: boolean, error: string | null): AiCallLog => ({
    userId: ctx.userId,
    conversationId: ctx.conversationId,
    model: purpose === "web_search" ? frWeb.searchModel : frWeb.fetchModel,
    provider: "web",
    purpose,
    outcome: ok ? "ok" : "error",
    httpStatus: null,
    error: ok ? null : error,
    latencyMs,
    tokensIn: null,
    tokensOut: null,
    costEur: 0,
    createdAt: now,
  });
  const rows = [row("web_search", found.error === null, found.error), ...found.fetched.map((read) => row("web_fetch", read, read ? null : frWeb.pageNotRead))];
  try {
    await deps.ai.writes.run(async (tx) => await insertAiCalls(tx, rows));
  } catch (e) {
    ctx.unwritten.push(...rows);
    deps.log.warn("web search not logged", { error: e });
  }
  const notice = found.sources.length === 0 ? frWeb.failed : null;
  if (notice) deps.log.warn("web search gave no sources", { error: found.error ?? "no readable source" });
  ctx.live.emit("web_sources", { sources: found.sources.map(shownSource), notice });
  return { query, sources: found.sources, nonce: randomBytes(6).toString("hex"), notice };
}
