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

/**
 * The URLs of every script the page loads from now on. Their bodies are fetched again once the page is idle
 * (expectRenderedByReact): a response's own body is gone once the page navigates (the app screen's redirect
 * after the sign-in), which failed this test at random.
 */
function recordScripts(page: Page): Set<string> {
  const urls = new Set<string>();
  page.on("response", (r) => {
    if (r.request().resourceType() === "script") urls.add(r.url());
  });
  return urls;
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
async function expectRenderedByReact(page: Page, scripts: Set<string>) {
  await page.waitForLoadState("networkidle");
  const keys = await reactKeys(page);
  expect(keys.root).toHaveLength(1);
  expect(keys.nodes).toBeGreaterThan(10);
  expect(scripts.size).toBeGreaterThan(0);
  for (const url of scripts) {
    const res = await page.request.get(url);
    expect(res.status()).toBe(200);
    const text = await res.text();
    const path = new URL(url).pathname;
    expect({ path, marks: PREACT_MARKS.filter((m) => m.test(text)).map(String) }).toEqual({ path, marks: [] });
  }
}

describe.skipIf(!!skip)("e2e: React renders the page (issue 32)", () => {
  const world = useE2E();

  test("the login screen: the root is a React container, its nodes React fibers, and no script is Preact", async () => {
    const { page, errors } = await world().newPage(DESKTOP);
    const scripts = recordScripts(page);
    await page.goto("/");
    await page.getByRole("heading", { name: "Connexion" }).waitFor();
    await expectRenderedByReact(page, scripts);
    expect(errors).toEqual([]);
  }, 30_000);

  test("the app screen: rendered by React, and none of its chunks is Preact", async () => {
    const { page, errors } = await world().newPage(DESKTOP);
    await registerThroughApi(page, { first: "Louise", last: "Martin", email: "react-runtime@example.fr", password: "Nuage-Bleu-42" });
    const scripts = recordScripts(page);
    await page.goto("/");
    await page.getByText("6/6 IA disponibles").first().waitFor();
    await page.getByRole("tab", { name: /Historique/ }).click();
    await expectRenderedByReact(page, scripts);
    expect(errors).toEqual([]);
  }, 30_000);
});
