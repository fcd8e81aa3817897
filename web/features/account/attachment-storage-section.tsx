import { useEffect, useState } from "react";
import { frData } from "../../i18n/fr-data.ts";
import { api, unwrap } from "../../lib/api.ts";

const t = frData.account;

function megabytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toLocaleString("fr-FR", { maximumFractionDigits: 1 });
}

/** « Pièces jointes » in « Mon compte »: the files kept against the plan's quota (ATTACHMENT_QUOTA_MB_<PLAN>), so a 413 never comes as a surprise. */
export function AttachmentStorageSection() {
  const [storage, setStorage] = useState<{ used_bytes: number; quota_bytes: number; quota_mb: number } | null>(null);
  useEffect(() => {
    unwrap(api["attachment-storage"].$get())
      .then(setStorage)
      .catch(() => setStorage(null));
  }, []);
  if (!storage) return null;
  return (
    <section className="account-section" aria-labelledby="account-storage-title">
      <h3 id="account-storage-title">{t.storageTitle}</h3>
      <p>{t.storageText(megabytes(storage.used_bytes), storage.quota_mb.toLocaleString("fr-FR"))}</p>
      <meter min={0} max={storage.quota_bytes} value={storage.used_bytes} aria-labelledby="account-storage-title" className="account-storage-meter" />
    </section>
  );
}
