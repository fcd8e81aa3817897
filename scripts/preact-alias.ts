import type { BunPlugin } from "bun";

/**
 * The web bundle renders with Preact through preact/compat: the app is
 * written against React's API (and typed by @types/react), and every import
 * of react, react-dom and their subpaths (ours and the libraries', e.g.
 * @tanstack/react-virtual and react-markdown) resolves to Preact's twin.
 * Used by the web build (scripts/build-web.ts) and by the web tests
 * (test/web/preact-alias.preload.ts), so the tests run what ships.
 * Why: docs/LIBRARIES.md (Preact).
 */
export const TWINS: Record<string, string> = {
  react: "preact/compat",
  "react-dom": "preact/compat",
  "react-dom/client": "preact/compat/client",
  "react/jsx-runtime": "preact/compat/jsx-runtime",
  "react/jsx-dev-runtime": "preact/compat/jsx-dev-runtime",
  "react-dom/test-utils": "preact/test-utils",
};

export const preactAlias: BunPlugin = {
  name: "preact-alias",
  setup(build) {
    build.onResolve({ filter: /^react(-dom)?(\/[a-z-]+)?$/ }, (args) => {
      const twin = TWINS[args.path];
      if (!twin) throw new Error(`no Preact twin for ${args.path}`);
      return { path: Bun.resolveSync(twin, import.meta.dir) };
    });
  },
};
