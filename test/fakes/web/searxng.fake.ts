import { type FakeServer, serveFake } from "../ai/serve.ts";

export type FakeHit = { url: string; title: string; content?: string };

/**
 * A SearXNG on the loopback, answering its JSON API as the real one does
 * (`GET /search?q=…&format=json` → `{ query, number_of_results, results: [{ url, title, content, engine }] }`).
 * `results` decides what a query finds; `fail` makes it answer an error (or hang) instead.
 */
export class FakeSearxng {
  results: (query: string) => FakeHit[] = () => [];
  fail: 500 | "hang" | null = null;
  /** Milliseconds before each answer (a benchmark's stand-in for the engines' own time). */
  delayMs = 0;
  /** Every query received, in order. */
  queries: string[] = [];
  private server: FakeServer;

  constructor() {
    this.server = serveFake(async (req, url) => {
      if (url.pathname !== "/search" || url.searchParams.get("format") !== "json") return new Response("Not Found", { status: 404 });
      const q = url.searchParams.get("q") ?? "";
      this.queries.push(q);
      if (this.delayMs > 0) await Bun.sleep(this.delayMs);
      if (this.fail === "hang") await new Promise<void>((resolve) => req.signal.addEventListener("abort", () => resolve()));
      if (this.fail) return new Response("Internal Server Error", { status: 500 });
      const results = this.results(q).map((r) => ({ ...r, content: r.content ?? "", engine: "fake", engines: ["fake"], score: 1 }));
      return Response.json({ query: q, number_of_results: results.length, results, answers: [], suggestions: [], unresponsive_engines: [] });
    });
  }

  get url(): string {
    return this.server.url;
  }

  reset(): void {
    this.results = () => [];
    this.fail = null;
    this.queries = [];
    this.delayMs = 0;
  }

  stop(): Promise<void> {
    return this.server.stop();
  }
}
