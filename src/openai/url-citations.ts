import { sourceLine } from "../web-search/source-line.ts";

type ShownSource = { n: number; title: string; url: string; domain: string };

/** OpenAI's `url_citation`: a source's URL and title, and the span of the answer's text that cites it. */
export type UrlCitation = { url: string; title: string; start_index: number; end_index: number };

/**
 * One citation per web source, spanning its line of the answer's « Sources »
 * list (`- [n] [titre](url) — domaine`, written by finishSynthesis): what the
 * openai clients read as `annotations` of type `url_citation`. A source whose
 * line is not in the text (a JSON answer, a text cut to a length) has none.
 */
export function urlCitations(text: string, sources: readonly ShownSource[] | undefined): UrlCitation[] {
  return (sources ?? []).flatMap((s) => {
    const line = sourceLine({ ...s, text: "" });
    const at = text.lastIndexOf(line);
    return at < 0 ? [] : [{ url: s.url, title: s.title, start_index: at, end_index: at + line.length }];
  });
}
