import { useState } from "react";
import { ErrorAlert } from "../../components/ui/error-alert.tsx";
import { LinkIcon, PencilIcon } from "../../components/ui/icons.tsx";
import { frSharing } from "../../i18n/fr-sharing.ts";
import { errorText } from "../../lib/api.ts";
import { RenameDialog } from "./rename-dialog.tsx";
import { ShareDialog } from "./share-dialog.tsx";
import { conversationTitleOf } from "./sharing.api.ts";

/** « Renommer » and « Partager » in the conversation bar. The title is read when the dialog opens: the chat state does not hold it. */
export function ConversationActions({ conversationId }: { conversationId: number }) {
  const [open, setOpen] = useState<"share" | { title: string } | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function rename() {
    setError(null);
    try {
      setOpen({ title: await conversationTitleOf(conversationId) });
    } catch (err) {
      setError(errorText(err, frSharing.rename.error));
    }
  }

  return (
    <div className="conversation-actions">
      <button type="button" className="secondary small-button" onClick={() => void rename()}>
        <PencilIcon size={16} /> {frSharing.rename.button}
      </button>
      <button type="button" className="secondary small-button" onClick={() => setOpen("share")}>
        <LinkIcon size={16} /> {frSharing.share.button}
      </button>
      <ErrorAlert message={error} />
      {open === "share" && <ShareDialog conversationId={conversationId} onClose={() => setOpen(null)} />}
      {open && open !== "share" && (
        <RenameDialog conversationId={conversationId} title={open.title} onClose={() => setOpen(null)} onRenamed={() => setOpen(null)} />
      )}
    </div>
  );
}
