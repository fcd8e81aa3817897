import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { DESKTOP, ensureChromium, useE2E } from "./harness.ts";
import { registerThroughApi } from "./page-checks.ts";

const skip = ensureChromium();
if (skip) console.warn(skip);

/**
 * Marks of Preact in a minified script: its name, and two regular expressions of its source that minifiers
 * keep as they are (the core's list of unitless style properties, preact/compat's test for the inputs whose
 * onChange is the `change` event). Both were in the main script when the build aliased React to preact/compat.
 */
const PREACT_MARKS = [/preact/i, /acit\|ex\(\?:s\|g\|n\|p\|\$\)\|rph\|grid/, /\/fil\|che\|rad\//];

/** The bodies of every script the page loads from now on, by path. */
function recordScripts(page: Page): Map<string, Promise<string>> {
  const bodies = new Map<string, Promise<string>>();
  page.on("response", (r) => {
    const path = new URL(r.url()).pathname;
    if (r.request().resourceType() !== "script" || bodies.has(path)) return;
    const body = r.text();
    // Awaited by expectRenderedByReact, which fails if it cannot be read; one loaded after the checks is not.
    body.catch(() => {});
    bodies.set(path, body);
  });
  return bodies;
}

/** The React-internal keys react-dom puts on the root container and on the DOM nodes it rendered. */
async function reactKeys(page: Page): Promise<{ root: string[]; nodes: number }> {
  return page.evaluate(() => {
    const root = document.getElementById("root")!;
    const isFiber = (k: string) => k.startsWith("__reactFiber$");
    return {
      root: Object.keys(root).filter((k) => k.startsWith("__reactContainer$")),
      nodes: [...root.querySelectorAll("*")].filter((el) => Object.keys(el).some(isFiber)).length,
    };
  });
}

/** Once the page is idle: its root is React's container, its nodes React's fibers, and no script it loaded is Preact. */
async function expectRenderedByReact(page: Page, bodies: Map<string, Promise<string>>) {
  await page.waitForLoadState("networkidle");
  const keys = await reactKeys(page);
  expect(keys.root).toHaveLength(1);
  expect(keys.nodes).toBeGreaterThan(10);
  expect(bodies.size).toBeGreaterThan(0);
  for (const [path, body] of bodies) {
    const text = await body;
    expect({ path, marks: PREACT_MARKS.filter((m) => m.test(text)).map(String) }).toEqual({ path, marks: [] });
  }
}

describe.skipIf(!!skip)("e2e: React renders the page (issue 32)", () => {
  const world = useE2E();

  test("the login screen: the root is a React container, its nodes React fibers, and no script is Preact", async () => {
    const { page, errors } = await world().newPage(DESKTOP);
    const bodies = recordScripts(page);
    await page.goto("/");
    await page.getByRole("heading", { name: "Connexion" }).waitFor();
    await expectRenderedByReact(page, bodies);
    expect(errors).toEqual([]);
  }, 30_000);

  test("the app screen: rendered by React, and none of its chunks is Preact", async () => {
    const { page, errors } = await world().newPage(DESKTOP);
    await registerThroughApi(page, { first: "Louise", last: "Martin", email: "react-runtime@example.fr", password: "Nuage-Bleu-42" });
    const bodies = recordScripts(page);
    await page.goto("/");
    await page.getByText("6/6 IA disponibles").first().waitFor();
    await page.getByRole("tab", { name: /Historique/ }).click();
    await expectRenderedByReact(page, bodies);
    expect(errors).toEqual([]);
  }, 30_000);
});
