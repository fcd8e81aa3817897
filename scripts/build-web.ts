/**
 * Bundles the React SPA (web/) into build/web with content-hashed names, and
 * writes build/web/manifest.ts: each file imported `with { type: "file" }`,
 * so the server serves them from disk in development and `bun build --compile`
 * embeds them in the executable. Reproducible: the same sources give the
 * same bytes, names included (test/cli/reproducible-build.test.ts).
 * Usage: bun scripts/build-web.ts [outdir] (default build/web).
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { brotliCompressSync, constants } from "node:zlib";
import { bootScript } from "./boot-script.ts";

const root = join(import.meta.dir, "..");
const final = resolve(process.argv[2] ?? join(root, "build", "web"));
// Built beside the old one and swapped in at the end, so a server or test reading build/web never sees half a build.
const out = `${final}.tmp-${process.pid}`;
rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, "assets"), { recursive: true });

const result = await Bun.build({
  entrypoints: [join(root, "web", "main.tsx")],
  outdir: join(out, "assets"),
  target: "browser",
  minify: true,
  splitting: true,
  sourcemap: "none",
  metafile: true,
  naming: { entry: "[name]-[hash].[ext]", chunk: "chunk-[hash].[ext]", asset: "[name]-[hash].[ext]" },
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}

const entry = result.outputs.find((o) => o.kind === "entry-point");
/**
 * The bundler lists the CSS files in a different order at each build. The
 * entry's own CSS holds every rule in the cascade's order; the chunks' CSS
 * repeat some of them. Chunks first by name (names are content hashes), the
 * entry's last: the same bytes each build, and the entry's order wins.
 */
const entryCss = (p: string) => basename(p).startsWith("main-");
const css = result.outputs
  .filter((o) => o.path.endsWith(".css"))
  .sort((a, b) => Number(entryCss(a.path)) - Number(entryCss(b.path)) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
if (!entry) throw new Error("no entry point produced");

const url = (p: string) => `/assets/${basename(p)}`;

/**
 * The first screen's chunks, read from the bundler's metafile: each screen's
 * own chunk (the dynamic imports in web/app.tsx) and the chunks it imports
 * statically, but not the main script, which index.html loads anyway.
 */
type Meta = { outputs: Record<string, { entryPoint?: string; imports: { path: string; kind: string }[]; inputs: Record<string, unknown> }> };
const meta: Meta = typeof result.metafile === "string" ? JSON.parse(result.metafile) : result.metafile;
const mainKey = `./${basename(entry.path)}`;
function chunksOf(source: string): string[] {
  const start = Object.keys(meta.outputs).find((k) => meta.outputs[k]!.entryPoint?.replaceAll("\\", "/").endsWith(source));
  if (!start) throw new Error(`no chunk for ${source}`);
  const seen = new Set<string>();
  const visit = (k: string) => {
    if (k === mainKey || seen.has(k)) return;
    seen.add(k);
    for (const i of meta.outputs[k]!.imports) if (i.kind === "import-statement") visit(i.path);
  };
  visit(start);
  return [...seen].map((k) => url(k));
}
const screens = { signedIn: chunksOf("web/features/layout/app-shell.tsx"), signedOut: chunksOf("web/features/auth/auth-views.tsx") };
const boot = bootScript(screens);
// One render-blocking stylesheet instead of one per chunk: the CSS of every chunk, in the order above, under one hashed name.
const allCss = (await Promise.all(css.map((o) => Bun.file(o.path).text()))).join("\n");
for (const o of css) rmSync(o.path);
const cssName = `styles-${Bun.hash(allCss).toString(36)}.css`;
writeFileSync(join(out, "assets", cssName), allCss);
const html = (await Bun.file(join(root, "web", "index.html")).text())
  // The boot script before the stylesheet: a script after it would wait for the stylesheet to load.
  .replace("<!--styles-->", `${boot.html}<link rel="stylesheet" href="/assets/${cssName}">`)
  .replace("<!--script-->", `<script type="module" src="${url(entry.path)}"></script>`);
writeFileSync(join(out, "index.html"), html);

// Files served under their own names (manifest, icons): not hashed, short cache.
const publicDir = join(root, "web", "public");
if (existsSync(publicDir)) cpSync(publicDir, join(out, "public"), { recursive: true });

function list(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name));
}

const files = [
  ...list(join(out, "assets")).map((p) => ({ p, url: url(p), immutable: true })),
  ...list(join(out, "public")).map((p) => ({ p, url: `/${relative(join(out, "public"), p)}`, immutable: false })),
];

/**
 * Brotli (quality 11) and gzip (level 9) beside each text file, once, at
 * build: the server sends whichever the client accepts without compressing
 * per request. A variant that saves nothing is not written.
 */
function precompress(p: string): { br?: string; gz?: string } {
  if (!/\.(js|css|svg|webmanifest|txt|json)$/.test(p)) return {};
  const body = readFileSync(p);
  const variants: { br?: string; gz?: string } = {};
  const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
  const gz = Bun.gzipSync(body, { level: 9 });
  if (br.length < body.length) writeFileSync((variants.br = `${p}.br`), br);
  if (gz.length < body.length) writeFileSync((variants.gz = `${p}.gz`), gz);
  return variants;
}

const imports: string[] = [];
const rows: string[] = [];
for (const f of files) {
  const ref = (path: string | undefined) => {
    if (!path) return "null";
    imports.push(`import f${imports.length} from "./${relative(out, path)}" with { type: "file" };`);
    return `f${imports.length - 1} as unknown as string`;
  };
  const { br, gz } = precompress(f.p);
  rows.push(`  [${JSON.stringify(f.url)}, { path: ${ref(f.p)}, br: ${ref(br)}, gzip: ${ref(gz)}, immutable: ${f.immutable} }],`);
}
writeFileSync(
  join(out, "manifest.ts"),
  `// @ts-nocheck: generated; the asset imports are file paths, typed by the exports below.\n// Generated by scripts/build-web.ts. Do not edit.\nimport indexHtml from "./index.html" with { type: "text" };\n${imports.join("\n")}\n\nexport const html = indexHtml as unknown as string;\n/** The CSP source that allows index.html's inline boot script (scripts/boot-script.ts). */\nexport const bootScriptHash = ${JSON.stringify(boot.cspHash)};\nexport const files = new Map<string, { path: string; br: string | null; gzip: string | null; immutable: boolean }>([\n${rows.join("\n")}\n]);\n`,
);
// What each first screen loads, module by module: read by test/web/bundle-split.test.ts, not served.
// Inputs and outputs sorted by name: the bundler lists them in a varying order.
const byName = <T>(o: Record<string, T>) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));
const sortedMeta = { ...meta, inputs: byName((meta as { inputs?: Record<string, unknown> }).inputs ?? {}), outputs: byName(meta.outputs) };
writeFileSync(join(out, "bundle-meta.json"), JSON.stringify({ main: mainKey, screens, meta: sortedMeta }));
// Sizes are read before the swap: an artifact reads its size from its path.
const jsBytes = result.outputs.filter((o) => o.path.endsWith(".js")).reduce((n, o) => n + o.size, 0);
rmSync(final, { recursive: true, force: true });
renameSync(out, final);
console.log(`web: ${files.length} files, ${(jsBytes / 1024).toFixed(1)} KiB of JavaScript`);
