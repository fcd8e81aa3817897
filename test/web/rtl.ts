// Import this (not @testing-library/react) in web tests: it registers the DOM
// first, then loads Testing Library and react-dom dynamically, because bun
// evaluates CommonJS dependencies (react-dom) before the importing module's
// body, and react-dom checks for a DOM once, when it loads.
import "./dom.ts";

const rtl = await import("@testing-library/react");
// findBy*/waitFor wait up to 15 s (Testing Library's default is 1 s): a loaded 2-core box renders slower and
// hashes a password (argon2, in-process server) in seconds, not milliseconds (5 s failed a sign-in under load);
// a test that finds its text sooner is not slowed down.
rtl.configure({ asyncUtilTimeout: 15_000 });
export const { render, fireEvent, within, act, cleanup, waitFor } = rtl;
(globalThis as { __rtlCleanup?: () => void }).__rtlCleanup = rtl.cleanup;
