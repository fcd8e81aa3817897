import { useCallback, useEffect, useState } from "react";
import type { PublicApiKey } from "../../lib/api-types.ts";
import { fr } from "../../i18n/fr.ts";
import { api, errorText, unwrap } from "../../lib/api.ts";

const t = fr.apiKeys;
const keysApi = api.auth["api-keys"];

/** The user's API keys: list, create (the secret is kept only until dismissed), revoke. */
export function useApiKeys() {
  const [keys, setKeys] = useState<PublicApiKey[] | null>(null);
  const [secret, setSecret] = useState<{ name: string; value: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const reload = useCallback(async () => {
    try {
      setKeys((await unwrap(keysApi.$get())).keys);
    } catch (err) {
      setError(errorText(err, t.loadError));
    }
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);

  async function run(action: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await action();
      await reload();
    } catch (err) {
      setError(errorText(err, t.loadError));
    } finally {
      setBusy(false);
    }
  }

  const create = (name: string) =>
    run(async () => {
      const created = await unwrap(keysApi.$post({ json: { name } }));
      setSecret({ name: created.name, value: created.secret });
    });
  const revoke = (id: number) =>
    run(async () => {
      await unwrap(keysApi[":id"].$delete({ param: { id: String(id) } }));
    });

  return { keys, secret, dismissSecret: () => setSecret(null), error, busy, create, revoke };
}
