import { type FormEvent, type ReactNode, useId, useState } from "react";
import { Dialog } from "../../components/ui/dialog.tsx";
import { ErrorAlert } from "../../components/ui/error-alert.tsx";
import { SaveCancel } from "./admin-notice.tsx";
import { frCouncil } from "../../i18n/fr-council.ts";
import type { CouncilMember, CouncilMemberAdd, CouncilMemberPatch } from "../../lib/api-types.ts";
import { ApiError } from "../../lib/api.ts";
import { fill } from "../../lib/format.ts";
import { addMember, updateMember } from "./admin.api.ts";

const t = frCouncil.form;
const KINDS = Object.keys(frCouncil.providers) as Array<CouncilMember["provider"]>;

/** The form as typed: every field a string or a box, as inputs give them; the server reads numbers and checks all. */
type MemberForm = {
  name: string;
  specialty: string;
  provider: CouncilMember["provider"];
  model: string;
  base_url: string;
  api_key: string;
  clear_key: boolean;
  vision: boolean;
  price_in: string;
  price_out: string;
  timeout_ms: string;
};

const text = (v: number | null | undefined) => (v === null || v === undefined ? "" : String(v));

function formOf(m: CouncilMember | null): MemberForm {
  return {
    name: m?.name ?? "",
    specialty: m?.specialty ?? "",
    provider: m?.provider ?? "openai-compatible",
    model: m?.model ?? "",
    base_url: m?.base_url ?? "",
    api_key: "",
    clear_key: false,
    vision: m?.vision ?? false,
    price_in: text(m?.price_in),
    price_out: text(m?.price_out),
    timeout_ms: text(m?.timeout_ms),
  };
}

/**
 * What the form sends: empty optional fields left out (the defaults), the key
 * only when one was typed (or cleared on purpose): the stored key never comes
 * back to the page, only its last 4 characters. An edit sends only what
 * changed, so saving a seeded member untouched leaves it following its
 * environment variables (MODEL_*, *_BASE_URL, AI_PRICE_*).
 */
function payloadOf(f: MemberForm, initial: MemberForm | null): CouncilMemberAdd | CouncilMemberPatch {
  const optional = (v: string) => (v.trim() === "" ? undefined : v.trim());
  const all = {
    name: f.name,
    specialty: f.specialty,
    provider: f.provider,
    model: f.model,
    base_url: f.base_url.trim() === "" ? null : f.base_url,
    vision: f.vision,
    price_in: optional(f.price_in),
    price_out: optional(f.price_out),
    timeout_ms: optional(f.timeout_ms),
  };
  const key = f.api_key.trim() !== "" ? { api_key: f.api_key.trim() } : f.clear_key ? { api_key: null } : {};
  if (!initial) return { ...all, ...key };
  const changed = Object.entries(all).filter(([k]) => f[k as keyof MemberForm] !== initial[k as keyof MemberForm]);
  return { ...Object.fromEntries(changed), ...key };
}

/** Add (member null) or edit one member of the council; the server's French refusal is shown as it is. */
export function MemberDialog({ member, onClose, onSaved }: { member: CouncilMember | null; onClose(): void; onSaved(name: string): void }) {
  const [initial] = useState<MemberForm | null>(() => (member ? formOf(member) : null));
  const [form, setForm] = useState<MemberForm>(() => formOf(member));
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();

  function set<K extends keyof MemberForm>(key: K, value: MemberForm[K]) {
    setForm((f) => ({ ...f, [key]: value }));
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    setFailure(null);
    setBusy(true);
    try {
      const payload = payloadOf(form, initial);
      // An edit that changes nothing has nothing to save.
      if (member && Object.keys(payload).length === 0) return onClose();
      const saved = member ? await updateMember(member.name, payload) : await addMember(payload as CouncilMemberAdd);
      onSaved(saved.name);
    } catch (err) {
      setFailure(err instanceof ApiError && err.detail ? err.detail : t.error);
    } finally {
      setBusy(false);
    }
  }

  const field = (key: keyof MemberForm, label: string, input: ReactNode, hint?: string) => (
    <div className="field">
      <label htmlFor={`${id}-${key}`}>{label}</label>
      {input}
      {hint && (
        <span className="u-field-hint" id={`${id}-${key}-hint`}>
          {hint}
        </span>
      )}
    </div>
  );
  const textInput = (key: "name" | "specialty" | "model" | "base_url" | "price_in" | "price_out" | "timeout_ms", extra: object = {}) => (
    <input id={`${id}-${key}`} name={key} value={form[key]} onChange={(e) => set(key, e.target.value)} {...extra} />
  );
  const decimal = { inputMode: "decimal" as const, autoComplete: "off" };
  const storedKey = member?.api_key_source === "stored" || member?.api_key_source === "unreadable";
  // The server drops a stored key when the address changes without a new one (issue 44): the form says so before saving.
  const keyDropped = storedKey && initial !== null && form.base_url !== initial.base_url && form.api_key.trim() === "";
  const keyHint = keyDropped ? t.apiKeyDropped : member?.api_key ? fill(t.apiKeyKeep, { masked: member.api_key }) : t.apiKeyHint;

  return (
    <Dialog sheet labelledBy={`${id}-title`} onClose={onClose} className="admin-edit admin-member">
      <h2 id={`${id}-title`}>{member ? fill(t.editTitle, { name: member.name }) : t.addTitle}</h2>
      <form onSubmit={submit} noValidate>
        <div className="admin-edit-grid">
          {field("name", t.name, textInput("name", { "data-autofocus": true, required: true, maxLength: 60 }))}
          {field(
            "provider",
            t.provider,
            <select id={`${id}-provider`} name="provider" value={form.provider} onChange={(e) => set("provider", e.target.value as MemberForm["provider"])}>
              {KINDS.map((k) => (
                <option key={k} value={k}>
                  {frCouncil.providers[k]}
                </option>
              ))}
            </select>,
          )}
        </div>
        {field("specialty", t.specialty, textInput("specialty", { maxLength: 120 }))}
        {field("model", t.model, textInput("model", { required: true, "aria-describedby": `${id}-model-hint`, spellCheck: false }), t.modelHint)}
        {field(
          "base_url",
          t.baseUrl,
          textInput("base_url", { type: "url", inputMode: "url", "aria-describedby": `${id}-base_url-hint`, spellCheck: false }),
          t.baseUrlHint,
        )}
        {field(
          "api_key",
          t.apiKey,
          <input
            id={`${id}-api_key`}
            name="api_key"
            type="password"
            autoComplete="off"
            spellCheck={false}
            aria-describedby={`${id}-api_key-hint`}
            value={form.api_key}
            onChange={(e) => set("api_key", e.target.value)}
          />,
          keyHint,
        )}
        {storedKey && (
          <label className="admin-check">
            <input type="checkbox" checked={form.clear_key} onChange={(e) => set("clear_key", e.target.checked)} /> {t.apiKeyClear}
          </label>
        )}
        <div className="admin-edit-grid admin-edit-grid-3">
          {field("price_in", t.priceIn, textInput("price_in", decimal))}
          {field("price_out", t.priceOut, textInput("price_out", decimal))}
          {field("timeout_ms", t.timeout, textInput("timeout_ms", { inputMode: "numeric", autoComplete: "off" }))}
        </div>
        <label className="admin-check">
          <input type="checkbox" checked={form.vision} onChange={(e) => set("vision", e.target.checked)} /> {t.vision}
        </label>
        <ErrorAlert message={failure} />
        <SaveCancel busy={busy} onCancel={onClose} texts={t} />
      </form>
    </Dialog>
  );
}
