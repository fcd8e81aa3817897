import { useId, useState } from "react";
import { ErrorAlert } from "../../components/ui/error-alert.tsx";
import { frCouncil } from "../../i18n/fr-council.ts";
import type { CouncilMember } from "../../lib/api-types.ts";
import { fill } from "../../lib/format.ts";
import { saveSynthesisers } from "./admin.api.ts";
import { useCouncilSave } from "./use-council-save.ts";

const t = frCouncil.synth;

/** Moves item i by `by` (-1 up, +1 down) in a copy of the list. */
function moved(list: string[], i: number, by: number): string[] {
  const next = [...list];
  const [item] = next.splice(i, 1);
  next.splice(i + by, 0, item!);
  return next;
}

/**
 * The synthesisers in order: buttons move each one up or down (no dragging:
 * the same on a phone, a keyboard and a screen reader), a list adds an
 * enabled member, « Enregistrer l'ordre » saves the whole order at once.
 */
export function SynthesisersEditor({ members, saved, onSaved }: { members: CouncilMember[]; saved: string[]; onSaved(): void }) {
  const [order, setOrder] = useState(saved);
  // The tab reloads the council after any change (a setting, a member): the order shown follows the stored
  // one only when that changed, so an order being edited survives. Done while rendering, not in an effect:
  // an effect that ran late (after a first click) would undo the click.
  const savedKey = saved.join("\n");
  const [shownFor, setShownFor] = useState(savedKey);
  if (shownFor !== savedKey) {
    setShownFor(savedKey);
    setOrder(saved);
  }
  const { busy, failure, run } = useCouncilSave(onSaved);
  const id = useId();
  const candidates = members.filter((m) => m.enabled && !order.includes(m.name));
  const changed = order.join("\n") !== savedKey;

  const save = () => run(() => saveSynthesisers(order));

  return (
    <section className="admin-synth" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t.title}</h3>
      <p className="muted">{t.hint}</p>
      {order.length === 0 && <p className="muted">{t.empty}</p>}
      <ol className="admin-synth-list">
        {order.map((name, i) => (
          <li key={name}>
            <span className="admin-synth-row">
              <span className="admin-synth-name">{name}</span>
              <span className="admin-synth-buttons">
                <button
                  type="button"
                  className="u-btn-outline"
                  disabled={i === 0}
                  aria-label={fill(t.up, { name })}
                  onClick={() => setOrder(moved(order, i, -1))}
                >
                  ↑
                </button>
                <button
                  type="button"
                  className="u-btn-outline"
                  disabled={i === order.length - 1}
                  aria-label={fill(t.down, { name })}
                  onClick={() => setOrder(moved(order, i, 1))}
                >
                  ↓
                </button>
                <button type="button" className="u-btn-outline" aria-label={fill(t.remove, { name })} onClick={() => setOrder(order.filter((n) => n !== name))}>
                  ✕
                </button>
              </span>
            </span>
          </li>
        ))}
      </ol>
      <div className="admin-synth-add">
        <label htmlFor={`${id}-add`}>{t.addLabel}</label>
        <select id={`${id}-add`} value="" disabled={candidates.length === 0} onChange={(e) => e.target.value && setOrder([...order, e.target.value])}>
          <option value="">{t.addNone}</option>
          {candidates.map((m) => (
            <option key={m.name} value={m.name}>
              {m.name}
            </option>
          ))}
        </select>
        <button type="button" className="primary" disabled={!changed || busy} onClick={() => void save()}>
          {t.save}
        </button>
      </div>
      <ErrorAlert message={failure} />
    </section>
  );
}
