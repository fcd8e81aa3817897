import { useEffect, useState } from "react";
import { DownloadIcon } from "../../../components/ui/icons.tsx";
import { frAttach } from "../../../i18n/fr-attach.ts";
import { ChipFace } from "./attachment-chip.tsx";
import { isImageKind, type MessageAttachment } from "./attachment-rules.ts";
import { attachmentBlob, downloadAttachment } from "./attachments.api.ts";

const t = frAttach;

/** The thumbnail of an image attachment as an object URL: the route needs the bearer token, which an <img src> cannot send. */
function useThumbnail(a: MessageAttachment): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!isImageKind(a.kind)) return;
    let made: string | null = null;
    let gone = false;
    attachmentBlob(a.id, true)
      .then((blob) => {
        if (gone) return;
        made = URL.createObjectURL(blob);
        setUrl(made);
      })
      .catch(() => {}); // the file icon stays
    return () => {
      gone = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [a.id, a.kind]);
  return url;
}

/**
 * Opens the file in a new tab. The tab is opened before the fetch, inside
 * the click, or a popup blocker would stop it; it then gets the blob's URL.
 */
async function openAttachment(a: MessageAttachment, onError: (text: string) => void) {
  const tab = window.open("", "_blank");
  try {
    const url = URL.createObjectURL(await attachmentBlob(a.id));
    if (tab) tab.location.href = url;
    else window.location.assign(url);
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } catch {
    tab?.close();
    onError(t.errors.open(a.name));
  }
}

function MessageChip({ a, onError }: { a: MessageAttachment; onError(text: string): void }) {
  const thumbnail = useThumbnail(a);
  return (
    <li className="attachment-chip">
      {/* Named by what it shows, "Ouvrir" first for screen readers (a label replacing the visible text would not match it). */}
      <button type="button" className="chip-open" onClick={() => void openAttachment(a, onError)}>
        <span className="sr-only">{t.openPrefix}</span>
        <ChipFace name={a.name} kind={a.kind} size={a.size} thumbnail={thumbnail} />
      </button>
      <button
        type="button"
        className="icon-button chip-download"
        aria-label={t.download(a.name)}
        title={t.downloadShort}
        onClick={() => downloadAttachment(a).catch(() => onError(t.errors.open(a.name)))}
      >
        <DownloadIcon size={16} />
      </button>
    </li>
  );
}

/** The files sent with a message: each opens in a new tab or downloads again (owner only: the server answers 404 to anyone else). */
export function MessageAttachments({ attachments }: { attachments: MessageAttachment[] }) {
  const [error, setError] = useState<string | null>(null);
  if (attachments.length === 0) return null;
  return (
    <>
      <ul className="attachment-chips in-message" aria-label={t.messageFiles}>
        {attachments.map((a) => (
          <MessageChip key={a.id} a={a} onError={setError} />
        ))}
      </ul>
      {error && (
        <p className="small danger" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
