import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App, loadAppShell } from "./app.tsx";
import { api, storedToken, unwrap } from "./lib/api.ts";
import { startEarly } from "./lib/early.ts";
import { readEntryUrl } from "./lib/entry-url.ts";
import "./styles.css";

// Read (and clean) the address once, before any render: StrictMode may run initialisers twice.
const entry = readEntryUrl();

// Before React mounts, with a stored session: fetch the app's chunk and its first API answers at once.
if (storedToken() && !entry.reset) {
  void loadAppShell();
  startEarly("models", () => unwrap(api.unisson.models.$get()));
  startEarly("me", () => unwrap(api.auth.me.$get()));
  startEarly("my-code", () => unwrap(api.promo["my-code"].$get()));
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App entry={entry} />
  </StrictMode>,
);
