import { type Context, Hono } from "hono";
import { files, html } from "../../build/web/manifest.ts";
import type { AppEnv } from "../deps.ts";

type Asset = { body: Uint8Array; gzip: Uint8Array; type: string; immutable: boolean; etag: string };

/**
 * Serves the bundled SPA: hashed assets cached for a year, index.html never
 * cached, gzip when the browser accepts it. Files are read and compressed once,
 * on first request, from disk or from the executable's embedded files.
 */
export function spaRoutes() {
  const cache = new Map<string, Promise<Asset | undefined>>();

  function load(url: string): Promise<Asset | undefined> {
    let hit = cache.get(url);
    if (!hit) {
      const entry = files.get(url);
      hit = entry
        ? (async () => {
            const file = Bun.file(entry.path);
            const body = new Uint8Array(await file.arrayBuffer());
            return {
              body,
              gzip: Bun.gzipSync(body),
              type: file.type,
              immutable: entry.immutable,
              etag: `"${Bun.hash(body).toString(36)}"`,
            };
          })()
        : Promise.resolve(undefined);
      cache.set(url, hit);
    }
    return hit;
  }

  const page = (c: Context<AppEnv>, status: 200 | 404) =>
    c.html(status === 200 ? html : notFoundHtml, status, { "Cache-Control": "no-cache" });

  return new Hono<AppEnv>()
    .get("/", (c) => page(c, 200))
    .get("*", async (c) => {
      const path = c.req.path;
      if (path.includes("reset-password")) return page(c, 200);
      const asset = await load(path);
      if (!asset) return page(c, 404);
      if (c.req.header("if-none-match") === asset.etag) return c.body(null, 304);
      const gz = /\bgzip\b/.test(c.req.header("accept-encoding") ?? "") && asset.gzip.length < asset.body.length;
      return c.body((gz ? asset.gzip : asset.body) as Uint8Array<ArrayBuffer>, 200, {
        "Content-Type": asset.type,
        "Cache-Control": asset.immutable ? "public, max-age=31536000, immutable" : "public, max-age=3600",
        ETag: asset.etag,
        Vary: "Accept-Encoding",
        ...(gz ? { "Content-Encoding": "gzip" } : {}),
      });
    });
}

const notFoundHtml = `<!doctype html><html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Page introuvable · Unisson</title></head><body><main><h1>Page introuvable</h1><p><a href="/">Retour à l'accueil Unisson</a></p></main></body></html>`;
