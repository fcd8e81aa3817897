import type { UsageReport } from "../../lib/api-types.ts";
import { frWebUsage as t } from "../../i18n/fr-web.ts";
import { frDay } from "../../lib/format.ts";
import { UsageTable } from "./usage-table.tsx";

/** The usage section's web search figures (issue 45): searches and pages read per day and per user; nothing without any. */
export function AdminWebUsage({ web }: { web: UsageReport["web_search"] | undefined }) {
  if (!web?.per_day.length) return null;
  return (
    <>
      <UsageTable caption={t.perDay} headers={[t.day, t.searches, t.fetches]} rows={web.per_day.map((d) => [frDay(d.day), d.searches, d.fetches])} />
      <UsageTable
        caption={t.perUser}
        headers={[t.user, t.searches, t.fetches]}
        rows={web.users.map((u) => [u.email ?? `n° ${u.user_id}`, u.searches, u.fetches])}
      />
    </>
  );
}
