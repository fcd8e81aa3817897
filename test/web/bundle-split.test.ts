import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";

/**
 * What each first screen downloads, module by module, from the web build's
 * metafile (scripts/build-web.ts writes build/web/bundle-meta.json; `npm test`
 * builds first): the main script plus the chunks index.html preloads for it.
 * The login screen carries no code of the app and the app none of the login.
 */
type Meta = { outputs: Record<string, { inputs: Record<string, unknown> }> };
const built = JSON.parse(readFileSync(join(import.meta.dir, "../../build/web/bundle-meta.json"), "utf8")) as {
  main: string;
  screens: { signedIn: string[]; signedOut: string[] };
  meta: Meta;
};

function modulesOf(urls: string[]): string[] {
  const keys = [built.main, ...urls.map((u) => `./${basename(u)}`)];
  return keys.flatMap((k) => Object.keys(built.meta.outputs[k]!.inputs)).filter((m) => m.startsWith("web/"));
}
const login = modulesOf(built.screens.signedOut);
const app = modulesOf(built.screens.signedIn);
const feature = (m: string) => /^web\/features\/([^/]+)\//.exec(m)?.[1];

describe("the first screens' bundles (issue 24)", () => {
  test("the login screen loads the sign-in screens and no module of another feature (chat, layout, history, pricing...)", () => {
    expect(login).toContain("web/features/auth/login-view.tsx");
    const foreign = login.filter((m) => feature(m) && !["auth", "session"].includes(feature(m)!));
    expect(foreign).toEqual([]);
  });

  test("the app screen loads the app shell and no module of the sign-in screens", () => {
    expect(app).toContain("web/features/layout/app-shell.tsx");
    expect(app.filter((m) => feature(m) === "auth")).toEqual([]);
  });

  test("the app screen's first load leaves the history list and its virtualizer to the history tab", () => {
    expect(app.filter((m) => feature(m) === "history" && m !== "web/features/history/history-tab.tsx")).toEqual([]);
  });

  test("the app screen's first load leaves the Markdown renderer (react-markdown, remark) to its own chunk", () => {
    expect(app).toContain("web/features/chat/markdown.tsx");
    const all = [built.main, ...built.screens.signedIn.map((u) => `./${basename(u)}`)].flatMap((k) => Object.keys(built.meta.outputs[k]!.inputs));
    expect(all.filter((m) => m.endsWith("markdown-view.tsx") || /node_modules\/(react-markdown|remark-|micromark)/.test(m))).toEqual([]);
  });
});
