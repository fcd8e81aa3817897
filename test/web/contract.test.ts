import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/**
 * The web's one contract with the server (docs/ARCHITECTURE.md, "Web"): the
 * SPA takes its types from the app's routes (`import type` of src/app.ts,
 * through hono's client) and its shared values from src/contracts/, which
 * imports nothing else; so the browser bundle never pulls server code.
 */
const root = join(import.meta.dir, "../..");
const CONTRACTS = "src/contracts/";
const APP_TYPE = "src/app.ts";
const transpiler = new Bun.Transpiler({ loader: "tsx" });

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile() && /\.tsx?$/.test(d.name))
    .map((d) => relative(root, join(d.parentPath, d.name)));
}

/** Relative specifiers of a file, resolved to repository paths. */
function resolved(file: string, specifiers: string[]): string[] {
  return specifiers.filter((s) => s.startsWith(".")).map((s) => relative(root, resolve(root, dirname(file), s)));
}

/** What the bundler keeps: Bun drops `import type` and imports whose names are all types. */
function runtimeImports(file: string, kind?: "import-statement" | "dynamic-import"): string[] {
  const found = transpiler.scanImports(readFileSync(join(root, file), "utf8")).filter((i) => !kind || i.kind === kind);
  return resolved(
    file,
    found.map((i) => i.path),
  );
}

/** Every `from "..."` and `import("...")`, type-only ones included. */
function allImports(file: string): string[] {
  const text = readFileSync(join(root, file), "utf8");
  return resolved(
    file,
    [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*"([^"]+)"/g)].map((m) => m[1]!),
  );
}

const web = sources("web");
const outside = (path: string) => !path.startsWith("web/");

describe("the web's contract with the server", () => {
  test("no web file imports server code at run time: only src/contracts/", () => {
    const offending = web.flatMap((f) =>
      runtimeImports(f)
        .filter((p) => outside(p) && !p.startsWith(CONTRACTS))
        .map((p) => `${f} -> ${p}`),
    );
    expect(offending).toEqual([]);
  });

  test("the only server module the web names, even for types, is the app type; the rest is src/contracts/", () => {
    const named = web.flatMap((f) =>
      allImports(f)
        .filter((p) => outside(p) && p !== APP_TYPE && !p.startsWith(CONTRACTS))
        .map((p) => `${f} -> ${p}`),
    );
    expect(named).toEqual([]);
  });

  test("src/contracts/ imports nothing outside itself, so the web pulls no server code through it", () => {
    const contracts = sources("src/contracts");
    expect(contracts.length).toBeGreaterThan(0);
    const offending = contracts.flatMap((f) => {
      const specifiers = [...readFileSync(join(root, f), "utf8").matchAll(/(?:\bfrom|\bimport)\s*\(?\s*"([^"]+)"/g)].map((m) => m[1]!);
      const packages = specifiers.filter((s) => !s.startsWith("."));
      return [...packages, ...resolved(f, specifiers).filter((p) => !p.startsWith(CONTRACTS))].map((p) => `${f} -> ${p}`);
    });
    expect(offending).toEqual([]);
  });

  test("components do not call the API: only hooks (use-*.ts) and fetchers (*.api.ts) do", () => {
    const callers = web.filter((f) => f.endsWith(".tsx") && /(?<![\w./-])api\.[a-z]/.test(readFileSync(join(root, f), "utf8")));
    expect(callers).toEqual([]);
  });

  test("a lazily loaded part is reached by import() only, or it would load with the first screen", () => {
    const lazy = new Set(web.flatMap((f) => runtimeImports(f, "dynamic-import")));
    expect(lazy.size).toBeGreaterThan(0);
    const eager = web.flatMap((f) =>
      runtimeImports(f, "import-statement")
        .filter((p) => lazy.has(p))
        .map((p) => `${f} -> ${p}`),
    );
    expect(eager).toEqual([]);
  });
});
