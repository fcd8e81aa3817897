import { createRequire } from "node:module";
import { expect } from "bun:test";
import type { Page } from "playwright-core";

const require = createRequire(import.meta.url);
const axeSource: string = require("axe-core").source;

type Violation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };

/**
 * Runs axe-core in the page (injected as a script through the DevTools
 * protocol, so the page's CSP does not apply) and fails on any serious or
 * critical violation, listing them.
 */
export async function checkA11y(page: Page, screen: string): Promise<void> {
  await page.evaluate(axeSource);
  const violations = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: Violation[] }> } }).axe;
    const r = await axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  })) as Violation[];
  const bad = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const report = bad.map((v) => `${screen}: [${v.impact}] ${v.id} — ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(report).toEqual([]);
}
