import { useCallback, useEffect, useState } from "react";
import { ErrorAlert } from "../../components/ui/error-alert.tsx";
import { type Notice, NoticeLine } from "./admin-notice.tsx";
import { frCouncil } from "../../i18n/fr-council.ts";
import type { CouncilMember, CouncilView, MemberTest } from "../../lib/api-types.ts";
import { ApiError, errorText } from "../../lib/api.ts";
import { fill, frDateTime } from "../../lib/format.ts";
import { adminErrorMessage } from "./admin-errors.ts";
import { fetchCouncil, testMember, updateMember } from "./admin.api.ts";
import { CouncilSettings } from "./council-settings.tsx";
import { MemberDialog } from "./member-dialog.tsx";
import { SynthesisersEditor } from "./synthesisers-editor.tsx";

const t = frCouncil;

/** « Tester »: running, or its answer (latency and first words, or the provider's error in French). */
type TestState = { running: true } | ({ running: false } & MemberTest);

/** The probe's last result, as one chip: available, failing (with the provider's reason) or not checked yet. */
function StatusChip({ status }: { status: CouncilMember["status"] }) {
  const label = status.ok === null ? t.status.unknown : status.ok ? t.status.ok : t.status.ko;
  const kind = status.ok === null ? "unknown" : status.ok ? "ok" : "ko";
  return (
    <span className="admin-status">
      <span className={`admin-status-chip ${kind}`}>{label}</span>
      {status.latency_ms !== null && status.ok && <span className="muted"> {fill(t.status.latency, { ms: status.latency_ms })}</span>}
      {status.error && <span className="admin-status-error">{status.error}</span>}
      {status.checked_at && <span className="muted admin-status-at">{fill(t.status.checked, { at: frDateTime(status.checked_at) })}</span>}
    </span>
  );
}

function TestLine({ state }: { state: TestState | undefined }) {
  if (!state) return null;
  if (state.running) return <p className="muted admin-test">{t.testing}</p>;
  return state.ok ? (
    <p className="admin-test ok">{fill(t.testOk, { ms: state.latency_ms, words: state.first_words })}</p>
  ) : (
    <p className="admin-test ko">{fill(t.testKo, { error: state.error })}</p>
  );
}

/** docs/PRODUCT.md#admin, issue 35: the council's members, their status, « Tester », and who writes the synthesis. */
export function AdminModels({ onForbidden }: { onForbidden(): void }) {
  const [data, setData] = useState<CouncilView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const [editing, setEditing] = useState<CouncilMember | "new" | null>(null);
  const [tests, setTests] = useState<Record<string, TestState>>({});

  const load = useCallback(async () => {
    try {
      setData(await fetchCouncil());
      setError(null);
    } catch (err) {
      if (err instanceof ApiError && err.status === 403) onForbidden();
      setError(adminErrorMessage(err, t.loadError));
    }
  }, [onForbidden]);

  useEffect(() => {
    void load();
  }, [load]);

  async function toggle(m: CouncilMember) {
    try {
      await updateMember(m.name, { enabled: !m.enabled });
      setNotice({ kind: "success", text: fill(t.toggled, { name: m.name, state: m.enabled ? t.off : t.on }) });
      await load();
    } catch (err) {
      setNotice({ kind: "error", text: errorText(err, t.form.error) });
    }
  }

  async function test(name: string) {
    setTests((s) => ({ ...s, [name]: { running: true } }));
    try {
      const result = await testMember(name);
      setTests((s) => ({ ...s, [name]: { running: false, ...result } }));
      await load();
    } catch (err) {
      setTests((s) => ({ ...s, [name]: { running: false, ok: false, name, latency_ms: 0, error: errorText(err, t.form.error) } as TestState }));
    }
  }

  async function saved(text: string) {
    setEditing(null);
    setNotice({ kind: "success", text });
    await load();
  }

  const members = data?.members ?? [];
  const enabled = members.filter((m) => m.enabled).length;

  return (
    <section aria-labelledby="admin-models-title" className="admin-models">
      <div className="admin-models-head">
        <div>
          <h2 id="admin-models-title">{t.title}</h2>
          <p className="muted">{t.intro}</p>
        </div>
        <button type="button" className="primary" onClick={() => setEditing("new")}>
          {t.add}
        </button>
      </div>
      <NoticeLine notice={notice} />
      <ErrorAlert message={error} />
      {data && (
        <p className="muted admin-total" aria-live="polite">
          {fill(t.count, { enabled, total: members.length })}
        </p>
      )}
      {members.length > 0 && (
        <table className="admin-table admin-models-table">
          <thead>
            <tr>
              <th scope="col">{t.col.name}</th>
              <th scope="col">{t.col.provider}</th>
              <th scope="col">{t.col.status}</th>
              <th scope="col">{t.col.key}</th>
              <th scope="col">{t.col.actions}</th>
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <tr key={m.name} className={m.enabled ? undefined : "admin-disabled"}>
                <th scope="row" data-label={t.col.name}>
                  <span>
                    <span className="admin-model-name">{m.name}</span>
                    {m.specialty && <span className="muted admin-model-specialty">{m.specialty}</span>}
                    <span className="admin-model-tags">
                      {!m.enabled && <span className="admin-tag muted">{t.off}</span>}
                      {m.synthesis_rank !== null && <span className="admin-tag">{fill(t.synthesis, { rank: m.synthesis_rank })}</span>}
                      {m.vision && <span className="admin-tag">{t.vision}</span>}
                    </span>
                  </span>
                </th>
                <td data-label={t.col.provider}>
                  <span>
                    {t.providers[m.provider]}
                    <code className="admin-model-id">{m.model}</code>
                  </span>
                </td>
                <td data-label={t.col.status}>
                  <span>
                    <StatusChip status={m.status} />
                    <TestLine state={tests[m.name]} />
                  </span>
                </td>
                <td data-label={t.col.key}>
                  {m.api_key ? (
                    <code>{m.api_key}</code>
                  ) : (
                    <span className={m.api_key_source === "unreadable" ? "admin-status-error" : "muted"}>
                      {m.api_key_source === "unreadable" ? t.keyUnreadable : t.noKey}
                    </span>
                  )}
                </td>
                <td className="admin-actions">
                  <button
                    type="button"
                    className="u-btn-outline"
                    aria-label={fill(t.testLabel, { name: m.name })}
                    disabled={tests[m.name]?.running === true}
                    onClick={() => void test(m.name)}
                  >
                    {t.test}
                  </button>
                  <button type="button" className="u-btn-outline" aria-label={fill(t.editLabel, { name: m.name })} onClick={() => setEditing(m)}>
                    {t.edit}
                  </button>
                  <button
                    type="button"
                    className="u-btn-outline"
                    aria-label={fill(m.enabled ? t.disableLabel : t.enableLabel, { name: m.name })}
                    onClick={() => void toggle(m)}
                  >
                    {m.enabled ? t.disable : t.enable}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {data && <SynthesisersEditor members={members} saved={data.settings.synthesisers} onSaved={() => void saved(t.synth.saved)} />}
      {data && <CouncilSettings members={members} settings={data.settings} onSaved={() => void saved(t.settings.saved)} />}
      {editing && (
        <MemberDialog member={editing === "new" ? null : editing} onClose={() => setEditing(null)} onSaved={(name) => void saved(fill(t.saved, { name }))} />
      )}
    </section>
  );
}
