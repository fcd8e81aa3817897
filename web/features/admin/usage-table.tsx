const number = new Intl.NumberFormat("fr-FR");

/** One table whose cells carry their header as data-label (the phone layout reads them as label: value). */
export function UsageTable({ caption, headers, rows }: { caption: string; headers: string[]; rows: Array<Array<string | number>> }) {
  return (
    <table className="admin-table admin-usage-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          {headers.map((h) => (
            <th key={h} scope="col">
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={String(r[0])}>
            {r.map((v, i) =>
              i === 0 ? (
                <th key={headers[i]} scope="row" data-label={headers[i]}>
                  {v}
                </th>
              ) : (
                <td key={headers[i]} data-label={headers[i]}>
                  {typeof v === "number" ? number.format(v) : v}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
