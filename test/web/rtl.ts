// Import this (not @testing-library/react) in web tests: it registers the DOM
// first, then loads Testing Library and react-dom dynamically, because bun
// evaluates CommonJS dependencies (react-dom) before the importing module's
// body, and react-dom checks for a DOM once, when it loads.
import "./dom.ts";

const rtl = await import("@testing-library/react");
// findBy*/waitFor wait up to 5 s (Testing Library's default is 1 s): a loaded CI box renders slower, and a
// test that finds its text sooner is not slowed down.
rtl.configure({ asyncUtilTimeout: 5000 });
export const { render, fireEvent, within, act, cleanup, waitFor } = rtl;
(globalThis as { __rtlCleanup?: () => void }).__rtlCleanup = rtl.cleanup;
