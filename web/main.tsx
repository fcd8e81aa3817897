import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App, preloadFirstScreen } from "./app.tsx";
import { readEntryUrl } from "./lib/entry-url.ts";
import "./styles.css";
import "./features/chat/attachments/attachments.css";

// Read (and clean) the address once, before any render: StrictMode may run initialisers twice.
const entry = readEntryUrl();

// Mounted once the first screen's chunk is here (index.html's boot script preloaded it): one render of the right screen, no loading frame before it.
void preloadFirstScreen(entry).then(() =>
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <App entry={entry} />
    </StrictMode>,
  ),
);
