import { useState } from "react";
import { ErrorAlert } from "../../components/ui/error-alert.tsx";
import { frData } from "../../i18n/fr-data.ts";
import { errorText } from "../../lib/api.ts";
import { downloadConversation } from "./chat.api.ts";

const t = frData.export;

/** Download the open conversation as Markdown or JSON (GET /conversation/{id}/export). */
export function ExportButtons({ conversationId }: { conversationId: number }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function download(format: "md" | "json") {
    setBusy(true);
    setError(null);
    try {
      await downloadConversation(conversationId, format);
    } catch (err) {
      // The server's own words when it refused (an export already running, 5 an hour), else the generic text.
      setError(errorText(err, t.error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="export-buttons" role="group" aria-label={t.group}>
      <span className="small muted" aria-hidden="true">
        {t.label}
      </span>
      <button type="button" className="secondary small-button" disabled={busy} onClick={() => void download("md")}>
        {t.markdown}
      </button>
      <button type="button" className="secondary small-button" disabled={busy} onClick={() => void download("json")}>
        {t.json}
      </button>
      <ErrorAlert message={error} />
    </div>
  );
}
