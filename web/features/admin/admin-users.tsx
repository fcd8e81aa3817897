import { type FormEvent, useCallback, useEffect, useState } from "react";
import type { AdminUserRow } from "../../lib/api-types.ts";
import type { PublicUser } from "../../lib/api-types.ts";
import { fr } from "../../i18n/fr.ts";
import { ApiError } from "../../lib/api.ts";
import { ConfirmDialog } from "../pricing/confirm-dialog.tsx";
import { fill, frLongDate } from "../../lib/format.ts";
import { adminErrorMessage } from "./admin-errors.ts";
import { deleteUser, fetchUsers } from "./admin.api.ts";
import { EditUserDialog } from "./edit-user-dialog.tsx";
import { ErrorAlert } from "../../components/ui/error-alert.tsx";
import { type Notice, NoticeLine } from "./admin-notice.tsx";

const t = fr.admin.users;
/** docs/PRODUCT.md#admin: 10 users a page; "next" is disabled when a page has fewer. */
export const PER_PAGE = 10;

export function AdminUsers({ me, onForbidden }: { me: PublicUser; onForbidden(): void }) {
  const [page, setPage] = useState(1);
  const [query, setQuery] = useState("");
  const [typed, setTyped] = useState("");
  const [data, setData] = useState<{ users: AdminUserRow[]; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const [editing, setEditing] = useState<PublicUser | null>(null);
  const [deleting, setDeleting] = useState<PublicUser | null>(null);

  const load = useCallback(async () => {
    try {
      const body = await fetchUsers(page, PER_PAGE, query);
      setData({ users: body.users, total: body.total });
      setError(null);
    } catch (err) {
      if (err instanceof ApiError && err.status === 403) onForbidden();
      setError(adminErrorMessage(err, fr.admin.errors.users));
    }
  }, [page, query, onForbidden]);

  useEffect(() => {
    void load();
  }, [load]);

  function search(e: FormEvent) {
    e.preventDefault();
    setPage(1);
    setQuery(typed.trim());
  }

  async function confirmDelete() {
    const target = deleting;
    setDeleting(null);
    if (!target) return;
    try {
      await deleteUser(target.id);
      setNotice({ kind: "success", text: fr.admin.remove.success });
      await load();
    } catch {
      setNotice({ kind: "error", text: fr.admin.remove.error });
    }
  }

  const users = data?.users ?? [];
  const pages = Math.max(1, Math.ceil((data?.total ?? 0) / PER_PAGE));
  const name = (u: PublicUser) => `${u.first_name} ${u.last_name}`;

  return (
    <section aria-labelledby="admin-users-title" className="admin-users">
      <h2 id="admin-users-title" className="u-visually-hidden">
        {fr.admin.tabs.users}
      </h2>
      <form className="admin-search" role="search" onSubmit={search}>
        <label htmlFor="admin-search">{t.search}</label>
        <div className="admin-search-row">
          <input id="admin-search" type="search" placeholder={t.searchPlaceholder} value={typed} onChange={(e) => setTyped(e.target.value)} />
          <button type="submit" className="primary">
            {t.searchButton}
          </button>
        </div>
      </form>
      <NoticeLine notice={notice} />
      <ErrorAlert message={error} />
      {data && (
        <p className="muted admin-total" aria-live="polite">
          {fill(t.total, { count: data.total })}
        </p>
      )}
      {data && users.length === 0 && <p className="muted">{t.empty}</p>}
      {users.length > 0 && (
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">{t.name}</th>
              <th scope="col">{t.email}</th>
              <th scope="col">{t.plan}</th>
              <th scope="col">{t.queries}</th>
              <th scope="col">{t.trialDays}</th>
              <th scope="col">{t.apiKeys}</th>
              <th scope="col">{t.createdAt}</th>
              <th scope="col">{t.actions}</th>
            </tr>
          </thead>
          <tbody>
            {users.map((u) => (
              <tr key={u.id}>
                <th scope="row" data-label={t.name}>
                  <span>
                    {name(u)} {u.id === me.id && <span className="muted">{t.you}</span>}
                    {u.is_admin && <span className="admin-tag">{t.admin}</span>}
                  </span>
                </th>
                <td data-label={t.email} className="admin-email">
                  {u.email}
                </td>
                <td data-label={t.plan}>
                  <span className={`plan-chip plan-${u.subscription_type}`}>{fr.admin.plans[u.subscription_type]}</span>
                </td>
                <td data-label={t.queries}>{u.remaining_queries}</td>
                <td data-label={t.trialDays}>{u.subscription_type === "trial" ? u.trial_days_remaining : "—"}</td>
                <td data-label={t.apiKeys}>{u.api_keys}</td>
                <td data-label={t.createdAt}>{frLongDate(u.created_at)}</td>
                <td data-label={t.actions} className="admin-actions">
                  <button type="button" className="u-btn-outline" aria-label={fill(t.editLabel, { name: name(u) })} onClick={() => setEditing(u)}>
                    {t.edit}
                  </button>
                  {/* docs/PRODUCT.md#admin: an admin cannot delete their own account, so no button on their row. */}
                  {u.id !== me.id && (
                    <button type="button" className="u-btn-danger" aria-label={fill(t.deleteLabel, { name: name(u) })} onClick={() => setDeleting(u)}>
                      {t.delete}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav className="admin-pager" aria-label={t.pagination}>
        <button type="button" className="u-btn-outline" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
          {t.prev}
        </button>
        <span>{fill(t.page, { page, pages })}</span>
        <button type="button" className="u-btn-outline" disabled={users.length < PER_PAGE} onClick={() => setPage((p) => p + 1)}>
          {t.next}
        </button>
      </nav>
      {editing && (
        <EditUserDialog
          user={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            setNotice({ kind: "success", text: fr.admin.edit.saved });
            void load();
          }}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={fr.admin.remove.title}
          text={fill(fr.admin.remove.text, { name: name(deleting), email: deleting.email })}
          confirmLabel={fr.admin.remove.confirm}
          cancelLabel={fr.admin.remove.cancel}
          danger
          onConfirm={confirmDelete}
          onCancel={() => setDeleting(null)}
        />
      )}
    </section>
  );
}
