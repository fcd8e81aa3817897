import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App, loadAppShell } from "./app.tsx";
import { fetchModels } from "./features/chat/chat.api.ts";
import { fetchMyCode } from "./features/referral/referral.api.ts";
import { fetchMe } from "./features/session/session.api.ts";
import { storedToken } from "./lib/api.ts";
import { startEarly } from "./lib/early.ts";
import { readEntryUrl } from "./lib/entry-url.ts";
import "./styles.css";

// Read (and clean) the address once, before any render: StrictMode may run initialisers twice.
const entry = readEntryUrl();

// Before React mounts, with a stored session: fetch the app's chunk and its first API answers at once.
if (storedToken() && !entry.reset) {
  void loadAppShell();
  startEarly("models", fetchModels);
  startEarly("me", fetchMe);
  startEarly("my-code", fetchMyCode);
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App entry={entry} />
  </StrictMode>,
);
