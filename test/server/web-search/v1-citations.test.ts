import { describe, expect, test } from "bun:test";
import { useFakeProviders } from "../chat/chat.helpers.ts";
import { apiApp, apiError } from "../openai/openai.helpers.ts";
import { useFakePages, useFakeSearxng } from "./web-search.helpers.ts";

const fakes = useFakeProviders();
const searx = useFakeSearxng();
const fakePages = useFakePages();

const webEnv = () => ({ env: { WEB_SEARCH_URL: searx().url, WEB_FETCH_ALLOW_PRIVATE: "true" } });

function oneArticle() {
  searx().results = () => [{ url: fakePages().url("/article/gamma"), title: "Article gamma", content: "Extrait gamma." }];
}

describe("/v1: web search and url_citation annotations", () => {
  test("chat completions with web_search_options: the answer carries a url_citation for each source, pointing into its text", async () => {
    oneArticle();
    const t = await apiApp(fakes(), webEnv());
    const res = await t.openai.chat.completions.create({ model: "unisson", messages: [{ role: "user", content: "Quoi de neuf ?" }], web_search_options: {} });
    const message = res.choices[0]!.message;
    // The default synthesis cites no [n]: the one annotation is the source's line in « Sources ».
    expect(message.annotations).toHaveLength(1);
    const citation = message.annotations![0]!;
    expect(citation.type).toBe("url_citation");
    expect(citation.url_citation.url).toBe(fakePages().url("/article/gamma"));
    expect(citation.url_citation.title).toBe("Article gamma");
    expect(message.content!.slice(citation.url_citation.start_index, citation.url_citation.end_index)).toContain(
      `[Article gamma](${fakePages().url("/article/gamma")})`,
    );
    expect(searx().queries).toEqual(["Quoi de neuf ?"]);
  });

  test("each « [n] » the synthesis writes is a url_citation of source n", async () => {
    oneArticle();
    fakes().control.synthesis = () =>
      [
        "## Réponse consolidée",
        "Le chiffre du jour est 35 [1].",
        "## Points de consensus",
        "Toutes s'accordent.",
        "## Divergences",
        "Aucune divergence notable.",
      ].join("\n");
    const t = await apiApp(fakes(), webEnv());
    const res = await t.openai.chat.completions.create({ model: "unisson", messages: [{ role: "user", content: "Quoi de neuf ?" }], web_search_options: {} });
    const message = res.choices[0]!.message;
    const first = message.annotations![0]!.url_citation;
    expect(message.content!.slice(first.start_index, first.end_index)).toBe("[1]");
    expect(first.url).toBe(fakePages().url("/article/gamma"));
    expect(message.annotations).toHaveLength(2);
  });

  test("the Responses API's web_search tool: output_text carries url_citation annotations", async () => {
    oneArticle();
    const t = await apiApp(fakes(), webEnv());
    const res = await t.openai.responses.create({ model: "unisson", input: "Quoi de neuf ?", tools: [{ type: "web_search" }] });
    const message = res.output[0] as unknown as { content: Array<{ type: string; text: string; annotations: Array<Record<string, unknown>> }> };
    const part = message.content[0]!;
    expect(part.annotations).toEqual([
      {
        type: "url_citation",
        url: fakePages().url("/article/gamma"),
        title: "Article gamma",
        start_index: part.text.lastIndexOf("- [1] [Article gamma]"),
        end_index: expect.any(Number),
      },
    ]);
  });

  test("a streamed chat completion gives the annotations with its last chunk", async () => {
    oneArticle();
    const t = await apiApp(fakes(), webEnv());
    const stream = await t.openai.chat.completions.create({
      model: "unisson",
      messages: [{ role: "user", content: "Quoi de neuf ?" }],
      web_search_options: {},
      stream: true,
    });
    const annotations: unknown[] = [];
    for await (const chunk of stream) annotations.push(...((chunk.choices[0]?.delta as { annotations?: unknown[] })?.annotations ?? []));
    expect(annotations).toEqual([
      { type: "url_citation", url_citation: expect.objectContaining({ url: fakePages().url("/article/gamma"), title: "Article gamma" }) },
    ]);
  });

  test("web_search_options on a server that offers no web search is refused in French", async () => {
    const t = await apiApp(fakes());
    const error = await apiError(
      t.openai.chat.completions.create({ model: "unisson", messages: [{ role: "user", content: "Quoi de neuf ?" }], web_search_options: {} }),
    );
    expect(error.status).toBe(400);
    expect(error.message).toContain("La recherche web n'est pas proposée sur ce serveur");
  });
});
