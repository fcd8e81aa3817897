import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "../../..");
const product = readFileSync(join(ROOT, "docs/PRODUCT.md"), "utf8");
const ids = new Set([...product.matchAll(/<a id="([a-z0-9-]+)"><\/a>/g)].map((m) => m[1]!));

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules" || name.startsWith(".")) return [];
    return statSync(path).isDirectory() ? filesUnder(path) : /\.(ts|tsx|md)$/.test(name) ? [path] : [];
  });
}

/** Every `PRODUCT.md#anchor` the code and the docs cite, with where. */
function citations(): Array<{ file: string; anchor: string }> {
  const files = ["src", "cli", "web", "test", "docs"].flatMap((d) => filesUnder(join(ROOT, d))).concat(join(ROOT, "README.md"));
  return files.flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(/PRODUCT\.md#([a-z0-9-]+)/g)].map((m) => ({ file: file.slice(ROOT.length + 1), anchor: m[1]! })),
  );
}

describe("docs/PRODUCT.md anchors", () => {
  test("every anchor cited by a comment, a test or a doc exists in PRODUCT.md", () => {
    const cited = citations();
    expect(cited.length).toBeGreaterThan(60);
    // `PRODUCT.md#anchor` itself is how the docs spell the rule.
    expect(cited.filter((c) => c.anchor !== "anchor" && !ids.has(c.anchor))).toEqual([]);
  });

  test("no comment points to a numbered section of a spec that is not in the repository", () => {
    const stale = ["src", "cli", "web", "test"]
      .flatMap((d) => filesUnder(join(ROOT, d)))
      .filter((file) => /\bspec(?:'s)?\s*(?:\(|\n\s*\*\s*)?sections?\s+\d/i.test(readFileSync(file, "utf8")));
    expect(stale).toEqual([]);
  });
});
