import { useState } from "react";
import { frCouncil } from "../../i18n/fr-council.ts";
import { errorText } from "../../lib/api.ts";

/** One save of the « Modèles » tab: busy while it runs, then `onSaved`, or the server's French refusal as `failure`. */
export function useCouncilSave(onSaved: () => void) {
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function run(call: () => Promise<unknown>) {
    setBusy(true);
    setFailure(null);
    try {
      await call();
      onSaved();
    } catch (err) {
      setFailure(errorText(err, frCouncil.form.error));
    } finally {
      setBusy(false);
    }
  }
  return { busy, failure, run };
}
