import { sourceLine } from "../web-search/source-line.ts";

type ShownSource = { n: number; title: string; url: string; domain: string };

/** OpenAI's `url_citation`: a source's URL and title, and the span of the answer's text that cites it. */
export type UrlCitation = { url: string; title: string; start_index: number; end_index: number };

/**
 * What the openai clients read as `annotations` of type `url_citation`: each
 * « [n] » the synthesis wrote before the « Sources » list (the members and
 * the synthesiser cite the sources by number), then each source's line of
 * that list (`- [n] [titre](url) — domaine`, written by finishSynthesis), in
 * the order of the text. A source whose line is not in the text (a JSON
 * answer, a text cut to a length) has only its marks, if any.
 */
export function urlCitations(text: string, sources: readonly ShownSource[] | undefined): UrlCitation[] {
  const list = sources ?? [];
  const lines = list.flatMap((s) => {
    const line = sourceLine({ ...s, text: "" });
    const at = text.lastIndexOf(line);
    return at < 0 ? [] : [{ url: s.url, title: s.title, start_index: at, end_index: at + line.length }];
  });
  const end = lines.length > 0 ? Math.min(...lines.map((l) => l.start_index)) : text.length;
  const byNumber = new Map(list.map((s) => [s.n, s]));
  // « [2] » in the body, not a Markdown link's text (« [2](…) »).
  const marks = [...text.slice(0, end).matchAll(/\[(\d{1,2})\](?!\()/g)].flatMap((m) => {
    const s = byNumber.get(Number(m[1]));
    return s ? [{ url: s.url, title: s.title, start_index: m.index, end_index: m.index + m[0].length }] : [];
  });
  return [...marks, ...lines];
}
