import { type FormEvent, useId, useState } from "react";
import { DEFAULT_MODERATION_MODEL } from "../../../src/contracts/moderation.ts";
import { ErrorAlert } from "../../components/ui/error-alert.tsx";
import { frCouncil } from "../../i18n/fr-council.ts";
import type { CouncilMember, CouncilView } from "../../lib/api-types.ts";
import { saveCouncilSettings } from "./admin.api.ts";
import { useCouncilSave } from "./use-council-save.ts";

const t = frCouncil.settings;
type SettingsPatch = Parameters<typeof saveCouncilSettings>[0];

/**
 * The council's settings: the peer review (« Délibération », off by default)
 * and the clarifier, each saved as it changes; the moderation model, saved
 * with its button (a typed id is only sent once complete).
 */
export function CouncilSettings({ members, settings, onSaved }: { members: CouncilMember[]; settings: CouncilView["settings"]; onSaved(): void }) {
  const { busy, failure, run } = useCouncilSave(onSaved);
  const id = useId();
  const save = (patch: SettingsPatch) => run(() => saveCouncilSettings(patch));

  return (
    <section className="admin-synth admin-council-settings" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t.title}</h3>
      <label className="admin-check">
        <input
          type="checkbox"
          checked={settings.peer_review}
          disabled={busy}
          aria-describedby={`${id}-peer-hint`}
          onChange={(e) => void save({ peer_review: e.target.checked })}
        />{" "}
        {t.peerReview}
      </label>
      <p className="u-field-hint admin-settings-hint" id={`${id}-peer-hint`}>
        {t.peerReviewHint}
      </p>
      <div className="field">
        <label htmlFor={`${id}-clarifier`}>{t.clarifier}</label>
        <select
          id={`${id}-clarifier`}
          value={settings.clarifier ?? ""}
          disabled={busy}
          onChange={(e) => void save({ clarifier: e.target.value === "" ? null : e.target.value })}
        >
          <option value="">{t.clarifierDefault}</option>
          {members
            .filter((m) => m.enabled || m.name === settings.clarifier)
            .map((m) => (
              <option key={m.name} value={m.name}>
                {m.name}
              </option>
            ))}
        </select>
      </div>
      <ModerationModelField saved={settings.moderation_model} busy={busy} save={save} />
      <ErrorAlert message={failure} />
    </section>
  );
}

/** OpenAI's moderation model: an id typed as OpenAI names it; left empty, the default (shown as the placeholder). */
function ModerationModelField({ saved, busy, save }: { saved: string | null; busy: boolean; save(patch: SettingsPatch): Promise<void> }) {
  const id = useId();
  const [value, setValue] = useState(saved ?? "");
  // A new stored value replaces what was typed, during the render (an effect would run late and eat the first keystrokes).
  const [shown, setShown] = useState(saved);
  if (shown !== saved) {
    setShown(saved);
    setValue(saved ?? "");
  }
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save({ moderation_model: value.trim() === "" ? null : value });
  };
  return (
    <form className="field admin-moderation-model" onSubmit={submit}>
      <label htmlFor={`${id}-moderation`}>{t.moderationModel}</label>
      <div className="admin-moderation-row">
        <input
          id={`${id}-moderation`}
          type="text"
          value={value}
          placeholder={DEFAULT_MODERATION_MODEL}
          maxLength={100}
          autoComplete="off"
          spellCheck={false}
          disabled={busy}
          aria-describedby={`${id}-moderation-hint`}
          onChange={(e) => setValue(e.target.value)}
        />
        <button type="submit" className="u-btn-outline" disabled={busy || value.trim() === (saved ?? "")}>
          {t.moderationSave}
        </button>
      </div>
      <p className="u-field-hint" id={`${id}-moderation-hint`}>
        {t.moderationHint.replace("{default}", DEFAULT_MODERATION_MODEL)}
      </p>
    </form>
  );
}
