import { type FormEvent, useState } from "react";
import { ErrorAlert } from "../../components/ui/error-alert.tsx";
import { Field } from "../../components/ui/field.tsx";
import { Modal } from "../../components/ui/modal.tsx";
import { PasswordInput } from "../../components/ui/password-input.tsx";
import { fr } from "../../i18n/fr.ts";
import { frData } from "../../i18n/fr-data.ts";
import { errorText } from "../../lib/api.ts";
import { deleteAccountCall, downloadMyData } from "./account.api.ts";
import { SharedLinksSection } from "../sharing/shared-links-section.tsx";
import { AttachmentStorageSection } from "./attachment-storage-section.tsx";
import type { PublicUser } from "../../lib/api-types.ts";

const t = frData.account;

/**
 * "Mon compte": the user's data rights, exercised by themself (privacy
 * policy): download everything held about them, delete the account behind a
 * password (and an e-mailed code when two-factor applies).
 */
export function AccountDialog({ user, onClose, onDeleted }: { user: PublicUser; onClose(): void; onDeleted(): void }) {
  return (
    <Modal title={t.title} onClose={onClose} size="md">
      <DataExport />
      <AttachmentStorageSection />
      <SharedLinksSection />
      <section className="account-section" aria-labelledby="account-delete-title">
        <h3 id="account-delete-title">{t.deleteTitle}</h3>
        {user.is_admin ? <p className="muted">{t.adminNote}</p> : <DeleteAccount onDeleted={onDeleted} />}
      </section>
    </Modal>
  );
}

function DataExport() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function download() {
    setBusy(true);
    setError(null);
    try {
      await downloadMyData();
    } catch (err) {
      setError(errorText(err, t.dataError));
    } finally {
      setBusy(false);
    }
  }
  return (
    <section className="account-section" aria-labelledby="account-data-title">
      <h3 id="account-data-title">{t.dataTitle}</h3>
      <p>{t.dataText}</p>
      <ErrorAlert message={error} />
      <button type="button" className="secondary" disabled={busy} onClick={() => void download()}>
        {t.dataButton}
      </button>
    </section>
  );
}

function DeleteAccount({ onDeleted }: { onDeleted(): void }) {
  const [confirming, setConfirming] = useState(false);
  const [password, setPassword] = useState("");
  const [code, setCode] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if ((await deleteAccountCall(password, code)) === "code-sent") {
        setCode(""); // a code was mailed: ask for it
        return;
      }
      onDeleted();
    } catch (err) {
      setError(errorText(err, t.deleteError));
    } finally {
      setBusy(false);
    }
  }

  if (!confirming) {
    return (
      <>
        <p>{t.deleteText}</p>
        <button type="button" className="danger-button" onClick={() => setConfirming(true)}>
          {t.deleteButton}
        </button>
      </>
    );
  }
  return (
    <form className="account-delete-form" onSubmit={(e) => void submit(e)} aria-label={t.confirmTitle}>
      <p>
        <strong>{t.confirmTitle}</strong> {t.confirmText}
      </p>
      <Field label={t.password}>
        {(a11y) => <PasswordInput {...a11y} autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />}
      </Field>
      {code !== null && (
        <Field label={t.code} hint={t.codeSent}>
          {(a11y) => (
            <input
              {...a11y}
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="\d{6}"
              maxLength={6}
              required
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, ""))}
            />
          )}
        </Field>
      )}
      <ErrorAlert message={error} />
      <div className="button-row end">
        <button type="button" className="secondary" onClick={() => setConfirming(false)}>
          {fr.common.cancel}
        </button>
        <button type="submit" className="danger-button" disabled={busy || !password}>
          {t.confirm}
        </button>
      </div>
    </form>
  );
}
