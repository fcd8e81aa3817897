import { frOps } from "../i18n/fr-ops.ts";
import { readFileSync } from "node:fs";
import { type Context, Hono } from "hono";
import { files, html } from "../../build/web/manifest.ts";
import type { AppEnv } from "../deps.ts";
import { compressNow, type Encoding, pickEncoding } from "../lib/compress.ts";

/** One file in every encoding we hold, with its validator. */
type Asset = { variants: Partial<Record<Encoding | "identity", Uint8Array>>; type: string; etag: string; cache: string };

const YEAR = "public, max-age=31536000, immutable";
/** Unhashed files (manifest, icons, robots.txt) may change at the next release. */
const HOUR = "public, max-age=3600";
/** index.html names the hashed files of the current release: revalidated every time, 304 when unchanged. */
const REVALIDATE = "no-cache";

const bytes = (path: string | null) => (path ? new Uint8Array(readFileSync(path)) : undefined);
const etagOf = (body: Uint8Array) => `"${Bun.hash(body).toString(36)}"`;

/** A page made in memory (index.html, the 404 page), compressed once. */
function pageAsset(text: string): Asset {
  const body = new TextEncoder().encode(text);
  return {
    variants: { identity: body, br: compressNow(body, "br"), gzip: compressNow(body, "gzip") },
    type: "text/html; charset=UTF-8",
    etag: etagOf(body),
    cache: REVALIDATE,
  };
}

// Module state: the files of the one build this process was started with (build/web's manifest), the same for every app.
let loaded: Map<string, Asset> | undefined;

/** Every file of the manifest, read once per process (test processes make many apps). */
function loadAssets(): Map<string, Asset> {
  if (loaded) return loaded;
  loaded = new Map();
  for (const [url, entry] of files) {
    const identity = bytes(entry.path)!;
    loaded.set(url, {
      variants: { identity, br: bytes(entry.br), gzip: bytes(entry.gzip) },
      type: Bun.file(entry.path).type,
      etag: etagOf(identity),
      cache: entry.immutable ? YEAR : HOUR,
    });
  }
  return loaded;
}

/**
 * Serves the bundled SPA. Hashed files are cached for a year and sent as the
 * Brotli or gzip copy written at build (scripts/build-web.ts), whichever the
 * client accepts; index.html carries an ETag and is revalidated. Every file
 * is read once, when the routes are made (about 1 MB, from disk or from the
 * executable): a server started from source keeps serving the release it
 * started with, even when build/web is rebuilt beside it (the page it handed
 * out names those files).
 */
export function spaRoutes() {
  const index = pageAsset(html);
  const notFound = pageAsset(notFoundHtml);
  const assets = loadAssets();

  function send(c: Context<AppEnv>, asset: Asset, status: 200 | 404 = 200) {
    const common = { ETag: asset.etag, "Cache-Control": asset.cache, Vary: "Accept-Encoding" };
    if (status === 200 && c.req.header("if-none-match") === asset.etag) return c.body(null, 304, common);
    const offered = (["br", "gzip"] as const).filter((e) => asset.variants[e]);
    const enc = pickEncoding(c.req.header("accept-encoding"), offered);
    const body = asset.variants[enc ?? "identity"]!;
    return c.body(body as Uint8Array<ArrayBuffer>, status, {
      ...common,
      "Content-Type": asset.type,
      ...(enc ? { "Content-Encoding": enc } : {}),
    });
  }

  return new Hono<AppEnv>()
    .get("/", (c) => send(c, index))
    .get("*", (c) => {
      const path = c.req.path;
      if (path.includes("reset-password")) return send(c, index);
      const asset = assets.get(path);
      return asset ? send(c, asset) : send(c, notFound, 404);
    });
}

const notFoundHtml = `<!doctype html><html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${frOps.notFoundPage.title}</title></head><body><main><h1>${frOps.notFoundPage.heading}</h1><p><a href="/">${frOps.notFoundPage.back}</a></p></main></body></html>`;
