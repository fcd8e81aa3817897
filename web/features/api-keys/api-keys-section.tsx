import { type FormEvent, useState } from "react";
import type { PublicApiKey } from "../../lib/api-types.ts";
import { ErrorAlert } from "../../components/ui/error-alert.tsx";
import { CheckIcon, CopyIcon } from "../../components/ui/icons.tsx";
import { fr } from "../../i18n/fr.ts";
import { fill, frLongDate } from "../../lib/format.ts";
import { ConfirmDialog } from "../pricing/confirm-dialog.tsx";
import { useCopy } from "../../lib/use-copy.ts";
import { useApiKeys } from "./use-api-keys.ts";
import "./api-keys.css";

const t = fr.apiKeys;

/**
 * "Clés d'API" in the subscription overlay: create a key (its secret shown
 * once, to copy), list and revoke, with a short example (docs/API.md has the rest).
 */
export function ApiKeysSection() {
  const { keys, secret, dismissSecret, error, busy, create, revoke } = useApiKeys();
  const [name, setName] = useState("");
  const [revoking, setRevoking] = useState<PublicApiKey | null>(null);
  const baseUrl = `${window.location.origin}/v1`;

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!name.trim()) return;
    void create(name.trim()).then(() => setName(""));
  }

  return (
    <section className="pricing-section api-keys" aria-labelledby="api-keys-title">
      <h3 id="api-keys-title">{t.title}</h3>
      <p className="muted">{t.intro}</p>
      <form className="field api-key-form" onSubmit={submit}>
        <label htmlFor="api-key-name">{t.nameLabel}</label>
        <div className="api-key-row">
          <input id="api-key-name" value={name} maxLength={60} placeholder={t.namePlaceholder} onChange={(e) => setName(e.target.value)} />
          <button type="submit" className="primary" disabled={busy || !name.trim()}>
            {busy ? t.creating : t.create}
          </button>
        </div>
      </form>
      {secret && <NewSecret name={secret.name} value={secret.value} onDone={dismissSecret} />}
      <ErrorAlert message={error} />
      {keys && keys.length === 0 && <p className="muted">{t.empty}</p>}
      {keys && keys.length > 0 && (
        <ul className="api-key-list" aria-label={t.listLabel}>
          {keys.map((k) => (
            <li key={k.id}>
              <div>
                <strong>{k.name}</strong> <code>{k.prefix}…</code>
                <p className="small muted">
                  {fill(t.created, { date: frLongDate(k.created_at) })} ·{" "}
                  {k.last_used_at ? fill(t.lastUsed, { date: frLongDate(k.last_used_at) }) : t.neverUsed}
                </p>
              </div>
              <button type="button" className="u-btn-danger" aria-label={fill(t.revokeLabel, { name: k.name })} disabled={busy} onClick={() => setRevoking(k)}>
                {t.revoke}
              </button>
            </li>
          ))}
        </ul>
      )}
      <details className="api-key-example">
        <summary>{t.exampleTitle}</summary>
        <p className="small">{fill(t.baseUrl, { url: baseUrl })}</p>
        <pre>
          <code>{`curl ${baseUrl}/chat/completions \\
  -H "Authorization: Bearer uns_…" \\
  -H "Content-Type: application/json" \\
  -d '{"model": "unisson", "messages": [{"role": "user", "content": "Quelle est la capitale de l’Australie ?"}]}'`}</code>
        </pre>
      </details>
      {revoking && (
        <ConfirmDialog
          title={t.revoke}
          text={fill(t.revokeConfirm, { name: revoking.name })}
          confirmLabel={t.revoke}
          cancelLabel={fr.common.cancel}
          danger
          busy={busy}
          onCancel={() => setRevoking(null)}
          onConfirm={() => void revoke(revoking.id).then(() => setRevoking(null))}
        />
      )}
    </section>
  );
}

/** The secret of the key just created: shown until dismissed, never again. */
function NewSecret({ name, value, onDone }: { name: string; value: string; onDone(): void }) {
  const { copied, copy } = useCopy(value);

  return (
    <div className="api-key-secret" role="status">
      <p>
        <strong>{t.createdTitle}</strong> ({name}) — {t.createdHint}
      </p>
      <div className="api-key-row">
        <code className="api-key-value" data-testid="api-key-secret">
          {value}
        </code>
        <button type="button" className="secondary" onClick={() => void copy()}>
          {copied ? <CheckIcon /> : <CopyIcon />} {copied ? t.copied : t.copy}
        </button>
      </div>
      <button type="button" className="u-btn-outline" onClick={onDone}>
        {t.done}
      </button>
    </div>
  );
}
