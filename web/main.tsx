import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app.tsx";
import { readEntryUrl } from "./lib/entry-url.ts";
import "./styles.css";

// Read (and clean) the address once, before any render: StrictMode may run initialisers twice.
const entry = readEntryUrl();

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App entry={entry} />
  </StrictMode>,
);
