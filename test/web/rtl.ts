// Import this (not @testing-library/react) in web tests: it registers the DOM
// first, then loads Testing Library and react-dom dynamically, because bun
// evaluates CommonJS dependencies (react-dom) before the importing module's
// body, and react-dom checks for a DOM once, when it loads.
import "./dom.ts";
import { ASYNC_UTIL_TIMEOUT_MS } from "./async-timeout.ts";

const rtl = await import("@testing-library/react");
rtl.configure({ asyncUtilTimeout: ASYNC_UTIL_TIMEOUT_MS });
export const { render, fireEvent, within, act, cleanup, waitFor } = rtl;
(globalThis as { __rtlCleanup?: () => void }).__rtlCleanup = rtl.cleanup;
