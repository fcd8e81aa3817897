import type { WebSource } from "./web-sources.ts";

/** « [1] [Titre](https://…) — domaine »: a Markdown line of the answer's Sources list; brackets in a title would break the link. */
export function sourceLine(s: WebSource): string {
  return `- [${s.n}] [${s.title.replace(/[[\]\\]/g, "")}](${s.url.replace(/[()\s]/g, encodeURIComponent)}) — ${s.domain}`;
}
