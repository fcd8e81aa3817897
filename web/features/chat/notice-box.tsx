import { fr } from "../../i18n/fr.ts";
import { WarningIcon } from "../../components/ui/icons.tsx";
import type { Notice } from "./chat-blocks.ts";

/** A blocked, refused or failed request, in the words of docs/PRODUCT.md#chat-blocks. */
export function NoticeBox({ notice, onPricing }: { notice: Notice; onPricing(): void }) {
  return (
    <div className={`notice notice-${notice.kind}`} role="alert">
      <WarningIcon />
      <div>
        {notice.title && <strong className="notice-title">{notice.title}</strong>}
        <p>{notice.text}</p>
        {notice.note && <p className="small">{notice.note}</p>}
        {notice.pricing && (
          <button type="button" className="primary small-button" onClick={onPricing}>
            {fr.chat.errors.seePlans}
          </button>
        )}
      </div>
    </div>
  );
}
