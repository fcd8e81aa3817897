import { useId, useState } from "react";
import { fr } from "../../i18n/fr.ts";
import type { ChangeAnswer } from "../../lib/api-types.ts";
import { ConfirmDialog } from "./confirm-dialog.tsx";
import { fill, frLongDate } from "../../lib/format.ts";
import { Dialog } from "../../components/ui/dialog.tsx";
import type { ChangeRow } from "./offers.ts";
import { rowLabel } from "./subscription-section.tsx";

const t = fr.pricing;

/** What the acknowledgement shows of the change's answer. */
export type ChangeAck = Pick<ChangeAnswer, "message" | "scheduled_date">;

/** Confirms a change: says whether it is immediate (upgrade) or waits for the renewal date; an optional reason. */
export function ChangeConfirmDialog({
  row,
  upgrade,
  renewalDate,
  busy,
  onConfirm,
  onCancel,
}: {
  row: ChangeRow;
  upgrade: boolean;
  renewalDate: string | null;
  busy: boolean;
  onConfirm(reason: string): void;
  onCancel(): void;
}) {
  const [reason, setReason] = useState("");
  const id = useId();
  const date = renewalDate ? frLongDate(renewalDate) : "—";
  const text = upgrade ? t.confirm.upgrade : row.product_type ? fill(t.confirm.scheduled, { date }) : fill(t.confirm.cancel, { date });
  return (
    <ConfirmDialog
      title={`${t.confirm.title} : ${rowLabel(row)}`}
      text={text}
      confirmLabel={t.confirm.submit}
      cancelLabel={t.confirm.back}
      danger={!row.product_type}
      busy={busy}
      onConfirm={() => onConfirm(reason.trim())}
      onCancel={onCancel}
    >
      <div className="field">
        <label htmlFor={`${id}-reason`}>{t.confirm.reason}</label>
        <textarea id={`${id}-reason`} rows={2} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
      </div>
    </ConfirmDialog>
  );
}

/** The acknowledgement after a change request: the server's message and the date it takes effect. */
export function ChangeAckDialog({ ack, onClose }: { ack: ChangeAck; onClose(): void }) {
  const id = useId();
  return (
    <Dialog sheet labelledBy={`${id}-title`} onClose={onClose} className="u-confirm">
      <h2 id={`${id}-title`}>{t.ack.title}</h2>
      <p role="status">{ack.message}</p>
      {ack.scheduled_date && <p className="muted">{fill(t.ack.scheduled, { date: frLongDate(ack.scheduled_date) })}</p>}
      <div className="u-actions">
        <button type="button" className="primary" data-autofocus onClick={onClose}>
          {t.ack.ok}
        </button>
      </div>
    </Dialog>
  );
}
