import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { importCycles, importGraph } from "../../helpers/import-graph.ts";

const root = join(import.meta.dir, "..", "..", "..");

/**
 * No import cycles anywhere in the project's own code, type-only imports
 * included: a newcomer can read any module after the ones it imports
 * (docs/ARCHITECTURE.md, "Imports").
 */
describe("imports", () => {
  test("no module imports itself back, through any path", () => {
    const graph = importGraph(root, ["src", "cli", "web", "scripts", "test"]);
    expect(graph.size).toBeGreaterThan(300);
    expect(importCycles(graph)).toEqual([]);
  });

  test("the check sees a cycle when there is one", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts"]],
    ]);
    expect(importCycles(graph)).toEqual([["a.ts", "b.ts", "c.ts"]]);
  });

  test("the server does not import the CLI, nor the CLI the server: only the executable's entry knows both", () => {
    const graph = importGraph(root, ["src", "cli"]);
    const importers = [...graph].filter(([, targets]) => targets.some((t) => t.startsWith("cli/"))).map(([file]) => file);
    expect(importers.filter((f) => f.startsWith("src/"))).toEqual(["src/main.ts"]);
    const cliImports = [...graph].filter(([file]) => file.startsWith("cli/")).flatMap(([, targets]) => targets);
    expect(cliImports).not.toContain("src/server.ts");
    expect(cliImports).not.toContain("src/app.ts");
  });
});
