import { frSteer } from "../../../i18n/fr-steer.ts";
import type { ChatMessage } from "../../../lib/api-types.ts";
import type { VersionInfo } from "./steer.api.ts";
import { VersionSwitcher } from "./version-switcher.tsx";
import "./steer.css";

const t = frSteer;
const ANSWERS = new Set(["final_response", "stopped_response"]);

/**
 * Under a message: the version switcher of a question asked more than once,
 * « Modifier » on the last question, « Nouvelle réponse » on the last answer.
 * Nothing while a run goes on.
 */
export function MessageActions({
  message,
  isLastQuestion,
  isLastAnswer,
  version,
  busy,
  onEdit,
  onRegenerate,
  onSwitch,
}: {
  message: ChatMessage;
  isLastQuestion: boolean;
  isLastAnswer: boolean;
  version: VersionInfo | undefined;
  busy: boolean;
  onEdit(): void;
  onRegenerate(): void;
  onSwitch(group: number, version: number): void;
}) {
  // Shown from the moment the question is sent (disabled until its run ends), so its bubble does not grow when the answer lands.
  const editable = isLastQuestion && message.sender === "user";
  const canRegenerate = isLastAnswer && ANSWERS.has(message.message_type ?? "") && !busy;
  if (!version && !editable && !canRegenerate) return null;
  return (
    <div className="message-actions">
      {version && <VersionSwitcher info={version} disabled={busy} onSwitch={onSwitch} />}
      {editable && (
        <button type="button" className="secondary" aria-label={t.editLabel} disabled={busy || message.id < 0} onClick={onEdit}>
          {t.edit}
        </button>
      )}
      {canRegenerate && (
        <button type="button" className="secondary" aria-label={t.regenerateLabel} onClick={onRegenerate}>
          {t.regenerate}
        </button>
      )}
    </div>
  );
}

/** « Arrêter » while a run is in progress. */
export function StopButton({ stopping, onStop }: { stopping: boolean; onStop(): void }) {
  return (
    <div className="steer-stop">
      <button type="button" className="secondary" aria-label={t.stopLabel} disabled={stopping} onClick={onStop}>
        ■ {stopping ? t.stopping : t.stop}
      </button>
    </div>
  );
}
