import { createRequire } from "node:module";
import { expect } from "bun:test";
import type { Page } from "playwright-core";

const require = createRequire(import.meta.url);
const axeSource: string = require("axe-core").source;

type Violation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };

/**
 * The violations axe-core finds in the page (injected through the DevTools
 * protocol, so the page's CSP does not apply). Injected once per document:
 * compiling its 500 KB again for each check of the same page cost the
 * browser about as much as the check.
 */
async function axeViolations(page: Page, runOnly?: string[]): Promise<Violation[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  return (await page.evaluate(async (only) => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: Violation[] }> } }).axe;
    const r = await axe.run(document, { resultTypes: ["violations"], ...(only ? { runOnly: { type: "rule", values: only } } : {}) });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  }, runOnly ?? null)) as Violation[];
}

const describeAll = (screen: string, vs: Violation[]) =>
  vs.map((v) => `${screen}: [${v.impact}] ${v.id} — ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);

/** Fails on any serious or critical axe violation (plus the impacts in `also`, e.g. moderate), listing them. */
export async function checkA11y(page: Page, screen: string, also: string[] = []): Promise<void> {
  const failing = new Set(["serious", "critical", ...also]);
  const bad = (await axeViolations(page)).filter((v) => failing.has(v.impact ?? ""));
  expect(describeAll(screen, bad)).toEqual([]);
}

/** Fails on any colour-contrast violation (WCAG AA), whatever its impact. */
export async function checkContrast(page: Page, screen: string): Promise<void> {
  expect(describeAll(screen, await axeViolations(page, ["color-contrast"]))).toEqual([]);
}
