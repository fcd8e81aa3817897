import { type FakeServer, serveFake } from "../ai/serve.ts";
import type { FakeHit } from "./searxng.fake.ts";

/**
 * Brave Search's web search API on the loopback, as the real one answers
 * (`GET /res/v1/web/search?q=…&count=…`, the key in `X-Subscription-Token`,
 * `{ type: "search", web: { results: [{ title, url, description }] } }`,
 * words found in <strong>); a wrong key gets its 401.
 */
export class FakeBrave {
  readonly key = "brave-fake-key";
  results: (query: string) => FakeHit[] = () => [];
  /** Every query received, with the count asked. */
  queries: Array<{ q: string; count: string | null }> = [];
  private server: FakeServer;

  constructor() {
    this.server = serveFake(async (req, url) => {
      if (url.pathname !== "/res/v1/web/search") return new Response("Not Found", { status: 404 });
      if (req.headers.get("x-subscription-token") !== this.key) return Response.json({ type: "ErrorResponse", error: { status: 401 } }, { status: 401 });
      const q = url.searchParams.get("q") ?? "";
      this.queries.push({ q, count: url.searchParams.get("count") });
      const results = this.results(q).map((r) => ({ title: r.title, url: r.url, description: `<strong>${r.content ?? ""}</strong>`, type: "search_result" }));
      return Response.json({ type: "search", query: { original: q }, web: { type: "search", results } });
    });
  }

  get url(): string {
    return this.server.url;
  }

  stop(): Promise<void> {
    return this.server.stop();
  }
}
