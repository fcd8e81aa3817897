import { type FormEvent, useEffect, useRef, useState } from "react";
import { Field } from "../../components/ui/field.tsx";
import { Modal } from "../../components/ui/modal.tsx";
import { fr } from "../../i18n/fr.ts";
import { ApiError } from "../../lib/api.ts";
import { sendContact } from "./contact.api.ts";
import { ErrorAlert } from "../../components/ui/error-alert.tsx";

const t = fr.contact;
/** docs/PRODUCT.md#contact: after success the dialog closes 2 s later, its form cleared. */
export const CONTACT_CLOSE_MS = 2000;

type Values = { name: string; email: string; subject: string; message: string };
type Status = "idle" | "sending" | "success" | "error";

/** The contact form; the server's error detail already names the support address (docs/PRODUCT.md#contact). */
export function ContactDialog({ initial, onClose }: { initial?: Partial<Values>; onClose(): void }) {
  const empty: Values = { name: "", email: "", subject: "", message: "", ...initial };
  const [v, setV] = useState<Values>(empty);
  const [status, setStatus] = useState<Status>("idle");
  const [error, setError] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const filled = Object.values(v).every((x) => x.trim() !== "");

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!filled || status === "sending") return;
    setStatus("sending");
    setError(null);
    try {
      await sendContact(v);
      setStatus("success");
      setV(empty);
      timer.current = setTimeout(onClose, CONTACT_CLOSE_MS);
    } catch (err) {
      setStatus("error");
      setError(err instanceof ApiError && err.detail ? err.detail : t.error);
    }
  }

  const set = (k: keyof Values) => (e: { target: { value: string } }) => setV((old) => ({ ...old, [k]: e.target.value }));

  return (
    <Modal title={t.title} onClose={onClose}>
      {status === "success" ? (
        <p className="alert success" role="status">
          {t.success}
        </p>
      ) : (
        <form onSubmit={submit} noValidate>
          <div className="grid-2">
            <Field label={t.name}>{(a) => <input {...a} name="name" autoComplete="name" required value={v.name} onChange={set("name")} />}</Field>
            <Field label={t.email}>
              {(a) => <input {...a} type="email" name="email" autoComplete="email" required value={v.email} onChange={set("email")} />}
            </Field>
          </div>
          <Field label={t.subject}>{(a) => <input {...a} name="subject" required value={v.subject} onChange={set("subject")} />}</Field>
          <Field label={t.message}>{(a) => <textarea {...a} name="message" rows={5} required value={v.message} onChange={set("message")} />}</Field>
          <ErrorAlert message={status === "error" ? error : null} />
          <button type="submit" className="primary block" disabled={!filled || status === "sending"}>
            {status === "sending" ? t.sending : t.submit}
          </button>
        </form>
      )}
    </Modal>
  );
}
