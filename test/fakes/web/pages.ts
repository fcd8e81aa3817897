/**
 * Web pages on the loopback for the council's reading: an article page
 * (`/article/<name>`), a redirect (`/redirect?to=<url>`), and a record of every
 * path asked, to prove a refused address was never reached. `hostname` may be
 * another loopback address (127.0.0.2), which an operator's allow-list can
 * single out.
 */
export class FakePages {
  readonly hits: string[] = [];
  /** Milliseconds before each page (a benchmark's stand-in for a distant site). */
  delayMs = 0;
  private server: ReturnType<typeof Bun.serve>;

  constructor(hostname = "127.0.0.1") {
    this.server = Bun.serve({
      hostname,
      port: 0,
      fetch: async (req) => {
        const url = new URL(req.url);
        this.hits.push(url.pathname);
        if (this.delayMs > 0) await Bun.sleep(this.delayMs);
        if (url.pathname === "/redirect") return new Response(null, { status: 302, headers: { location: url.searchParams.get("to") ?? "/" } });
        const name = url.pathname.startsWith("/article/") ? decodeURIComponent(url.pathname.slice("/article/".length)) : null;
        if (!name) return new Response("Not Found", { status: 404 });
        return new Response(articleHtml(name), { headers: { "content-type": "text/html; charset=utf-8" } });
      },
    });
  }

  /** An address of the server; `host` names it another way (localhost). */
  url(path: string, host = this.server.hostname): string {
    return `http://${host}:${this.server.port}${path}`;
  }

  stop(): Promise<void> {
    return this.server.stop(true);
  }
}

/** The sentence the page's main text carries, for a test to find it in a prompt. */
export function articleFact(name: string): string {
  return `Selon la page ${name}, le chiffre du jour est ${name.length * 7}.`;
}

function articleHtml(name: string): string {
  const filler = "Ce paragraphe donne le contexte de l'article, assez long pour que Readability le retienne comme texte principal. ".repeat(4);
  return `<!doctype html><html lang="fr"><head><title>Article ${name}</title><script>window.evil = 1</script></head><body>
<nav><a href="/">Accueil</a> <a href="/menu">Menu du site</a></nav>
<article><h1>Article ${name}</h1><p>${articleFact(name)}</p><p>${filler}</p><p>${filler}</p></article>
<footer>Mentions légales du site</footer></body></html>`;
}
