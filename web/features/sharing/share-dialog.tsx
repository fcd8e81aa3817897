import { useId, useState } from "react";
import { ErrorAlert } from "../../components/ui/error-alert.tsx";
import { CheckIcon, CopyIcon } from "../../components/ui/icons.tsx";
import { Modal } from "../../components/ui/modal.tsx";
import { frSharing } from "../../i18n/fr-sharing.ts";
import { errorText } from "../../lib/api.ts";
import { useCopy } from "../../lib/use-copy.ts";
import { createShare } from "./sharing.api.ts";
import "./sharing.css";

const t = frSharing.share;

/**
 * « Partager »: makes a read-only link to a copy of the conversation as it
 * is now, each model's answer only if ticked. The link is shown once (the
 * server keeps only its hash); the owner revokes it in « Mon compte ».
 */
export function ShareDialog({ conversationId, onClose, onShared }: { conversationId: number; onClose(): void; onShared?(): void }) {
  const [includeModels, setIncludeModels] = useState(false);
  const [url, setUrl] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const checkboxId = useId();

  async function create() {
    setBusy(true);
    setError(null);
    try {
      setUrl((await createShare(conversationId, includeModels)).url);
      onShared?.();
    } catch (err) {
      setError(errorText(err, t.error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal title={t.title} onClose={onClose} size="md" className="share-dialog">
      <p>{t.intro}</p>
      {url ? (
        <SharedLink url={url} onDone={onClose} />
      ) : (
        <>
          <label className="share-option" htmlFor={checkboxId}>
            <input id={checkboxId} type="checkbox" checked={includeModels} onChange={(e) => setIncludeModels(e.target.checked)} />
            {t.includeModels}
          </label>
          <ErrorAlert message={error} />
          <div className="button-row end">
            <button type="button" className="primary" disabled={busy} onClick={() => void create()} data-autofocus>
              {busy ? t.creating : t.create}
            </button>
          </div>
        </>
      )}
    </Modal>
  );
}

function SharedLink({ url, onDone }: { url: string; onDone(): void }) {
  const { copied, copy } = useCopy(url);
  const inputId = useId();

  return (
    <div className="share-result" role="status">
      <label htmlFor={inputId}>{t.linkLabel}</label>
      <div className="share-link-row">
        <input id={inputId} readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" className="secondary" onClick={() => void copy()}>
          {copied ? <CheckIcon /> : <CopyIcon />} {copied ? t.copied : t.copy}
        </button>
      </div>
      <p className="small muted">{t.once}</p>
      <div className="button-row end">
        <button type="button" className="primary" onClick={onDone}>
          {t.done}
        </button>
      </div>
    </div>
  );
}
