import { useCallback, useState } from "react";
import { api, unwrap } from "../../../lib/api.ts";
import { type AttachmentLimits, DEFAULT_LIMITS } from "./attachment-rules.ts";

let asked: Promise<AttachmentLimits> | null = null;

/** GET /api/attachment-limits once per page load; the defaults (10 MB, 5 files) if it fails. */
function serverLimits(): Promise<AttachmentLimits> {
  asked ??= unwrap(api["attachment-limits"].$get())
    .then(({ attachments: a }): AttachmentLimits => ({ maxMb: a.max_mb, perMessage: a.per_message, accept: a.accept }))
    .catch(() => {
      asked = null; // asked again next time
      return DEFAULT_LIMITS;
    });
  return asked;
}

/**
 * The limits the server enforces (ATTACHMENT_MAX_MB, ATTACHMENTS_PER_MESSAGE,
 * the types it reads), for the page's own checks. Asked for when the box is
 * first used (`load`: a focus, files dragged over it), not on the first
 * screen's load, which keeps its three calls; the defaults until then.
 */
export function useAttachmentLimits(): { limits: AttachmentLimits; load(): void } {
  const [limits, setLimits] = useState(DEFAULT_LIMITS);
  const [loading, setLoading] = useState(false);
  const load = useCallback(() => {
    if (loading) return;
    setLoading(true);
    void serverLimits().then(setLimits);
  }, [loading]);
  return { limits, load };
}
