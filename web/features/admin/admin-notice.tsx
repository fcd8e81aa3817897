/** A success or failure line of an admin tab (saved, deleted...): success is polite (status), failure an alert. */
export type Notice = { kind: "success" | "error"; text: string } | null;

export function NoticeLine({ notice }: { notice: Notice }) {
  if (!notice) return null;
  return (
    <p className={`alert ${notice.kind}`} role={notice.kind === "error" ? "alert" : "status"}>
      {notice.text}
    </p>
  );
}

/** The footer of an admin dialog's form: « Annuler » closes, the submit button says it is saving. */
export function SaveCancel({ busy, onCancel, texts }: { busy: boolean; onCancel(): void; texts: { cancel: string; save: string; saving: string } }) {
  return (
    <div className="u-actions">
      <button type="button" className="u-btn-outline" onClick={onCancel}>
        {texts.cancel}
      </button>
      <button type="submit" className="primary" disabled={busy}>
        {busy ? texts.saving : texts.save}
      </button>
    </div>
  );
}
