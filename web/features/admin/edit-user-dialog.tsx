import { type FormEvent, type ReactNode, useId, useState } from "react";
import type { PublicUser } from "../../lib/api-types.ts";
import { fr } from "../../i18n/fr.ts";
import { ApiError } from "../../lib/api.ts";
import { updateUser } from "./admin.api.ts";
import { Dialog } from "../../components/ui/dialog.tsx";
import { type FormErrors, formFromUser, PLANS, TRIAL_DAYS_MAX, type UserForm, validateUserForm } from "./admin-validation.ts";
import { ErrorAlert } from "../../components/ui/error-alert.tsx";
import { SaveCancel } from "./admin-notice.tsx";
import { BillingHistory } from "./billing-history.tsx";

const t = fr.admin.edit;

/** The admin's edit-user dialog: client rules first (docs/PRODUCT.md#admin-edit), then the server's detail if it refuses. */
export function EditUserDialog({ user, onClose, onSaved }: { user: PublicUser; onClose(): void; onSaved(): void }) {
  const [form, setForm] = useState<UserForm>(() => formFromUser(user));
  const [errors, setErrors] = useState<FormErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const isTrial = form.subscription_type === "trial";
  // A new address is a new identity: the server ends the user's sessions and API keys (src/auth/revoke-access.ts).
  const emailChanges = form.email.trim().toLowerCase() !== user.email.toLowerCase();

  function set<K extends keyof UserForm>(key: K, value: UserForm[K]) {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const { errors: found, payload } = validateUserForm(form);
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await updateUser(user.id, payload);
      onSaved();
    } catch (err) {
      setFailure(err instanceof ApiError && err.detail ? err.detail : t.saveError);
    } finally {
      setBusy(false);
    }
  }

  const field = (key: keyof UserForm, label: string, input: ReactNode) => (
    <div className="field">
      <label htmlFor={`${id}-${key}`}>{label}</label>
      {input}
      {key === "trial_days_remaining" && (
        <span className="u-field-hint" id={`${id}-days-hint`}>
          {t.trialDaysHint}
        </span>
      )}
      {key === "email" && emailChanges && (
        <span className="u-field-hint" role="note">
          {t.emailRevokes}
        </span>
      )}
      {errors[key] && (
        <span className="u-field-error" id={`${id}-${key}-err`}>
          {errors[key]}
        </span>
      )}
    </div>
  );
  const common = (key: keyof UserForm) => ({
    id: `${id}-${key}`,
    name: key,
    "aria-invalid": errors[key] ? true : undefined,
    "aria-describedby": errors[key] ? `${id}-${key}-err` : undefined,
  });

  return (
    <Dialog sheet labelledBy={`${id}-title`} onClose={onClose} className="admin-edit">
      <h2 id={`${id}-title`}>{t.title}</h2>
      <form onSubmit={submit} noValidate>
        <div className="admin-edit-grid">
          {field(
            "first_name",
            t.firstName,
            <input {...common("first_name")} data-autofocus value={form.first_name} onChange={(e) => set("first_name", e.target.value)} />,
          )}
          {field("last_name", t.lastName, <input {...common("last_name")} value={form.last_name} onChange={(e) => set("last_name", e.target.value)} />)}
        </div>
        {field("email", t.email, <input {...common("email")} type="email" value={form.email} onChange={(e) => set("email", e.target.value)} />)}
        {field(
          "subscription_type",
          t.plan,
          <select
            {...common("subscription_type")}
            value={form.subscription_type}
            onChange={(e) => set("subscription_type", e.target.value as UserForm["subscription_type"])}
          >
            {PLANS.map((p) => (
              <option key={p} value={p}>
                {fr.admin.plans[p]}
              </option>
            ))}
          </select>,
        )}
        <div className="admin-edit-grid">
          {field(
            "remaining_queries",
            t.remaining,
            <input
              {...common("remaining_queries")}
              type="number"
              min={0}
              inputMode="numeric"
              value={form.remaining_queries}
              onChange={(e) => set("remaining_queries", e.target.value)}
            />,
          )}
          {/* Trial days mean something only on a trial: the field (max 30) is shown for trial users only. */}
          {isTrial &&
            field(
              "trial_days_remaining",
              t.trialDays,
              <input
                {...common("trial_days_remaining")}
                aria-describedby={`${id}-days-hint${errors.trial_days_remaining ? ` ${id}-trial_days_remaining-err` : ""}`}
                type="number"
                min={0}
                max={TRIAL_DAYS_MAX}
                inputMode="numeric"
                value={form.trial_days_remaining}
                onChange={(e) => set("trial_days_remaining", e.target.value)}
              />,
            )}
        </div>
        <BillingHistory userId={user.id} />
        <ErrorAlert message={failure} />
        <SaveCancel busy={busy} onCancel={onClose} texts={t} />
      </form>
    </Dialog>
  );
}
