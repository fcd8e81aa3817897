import { useId } from "react";
import { ErrorAlert } from "../../components/ui/error-alert.tsx";
import { frCouncil } from "../../i18n/fr-council.ts";
import type { CouncilMember, CouncilView } from "../../lib/api-types.ts";
import { saveCouncilSettings } from "./admin.api.ts";
import { useCouncilSave } from "./use-council-save.ts";

const t = frCouncil.settings;

/** The council's settings, each saved as it changes: the peer review (« Délibération », off by default) and the clarifier. */
export function CouncilSettings({ members, settings, onSaved }: { members: CouncilMember[]; settings: CouncilView["settings"]; onSaved(): void }) {
  const { busy, failure, run } = useCouncilSave(onSaved);
  const id = useId();
  const save = (patch: { peer_review?: boolean; clarifier?: string | null }) => run(() => saveCouncilSettings(patch));

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
      <ErrorAlert message={failure} />
    </section>
  );
}
