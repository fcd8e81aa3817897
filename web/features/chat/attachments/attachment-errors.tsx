import { CloseIcon } from "../../../components/ui/icons.tsx";
import { frAttach } from "../../../i18n/fr-attach.ts";

/** The files refused (by the page or the server), each named with its reason; read out when they appear. */
export function AttachmentErrors({ errors, onDismiss }: { errors: string[]; onDismiss(): void }) {
  if (errors.length === 0) return null;
  return (
    <div className="attachment-errors" role="alert">
      <ul>
        {errors.map((text) => (
          <li key={text}>{text}</li>
        ))}
      </ul>
      <button type="button" className="icon-button" aria-label={frAttach.dismiss} onClick={onDismiss}>
        <CloseIcon size={16} />
      </button>
    </div>
  );
}
