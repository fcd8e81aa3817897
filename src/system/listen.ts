import { frOps } from "../i18n/fr-ops.ts";
import { RefusedError } from "../lib/errors.ts";

type Serve = Parameters<typeof Bun.serve>[0];

/**
 * Bun.serve on HOST and PORT, a refusal of the system becoming one French
 * line naming the variable and what to do (issue 46): Bun's own are English
 * (« Failed to start server. Is port 3000 in use? », « EINVAL: invalid
 * argument, listen »).
 */
export function listen(options: Serve & { hostname: string; port: number }): ReturnType<typeof Bun.serve> {
  try {
    return Bun.serve(options);
  } catch (e) {
    const { code } = e as { code?: string };
    const { hostname, port } = options;
    if (code === "EADDRINUSE") throw new RefusedError(frOps.start.portTaken(port));
    if (code === "EACCES" || code === "EPERM") throw new RefusedError(frOps.start.portPrivileged(port, process.getuid?.() ?? -1));
    if (code === "EADDRNOTAVAIL" || code === "EINVAL" || code === "ENOTFOUND" || code === "EAI_AGAIN") throw new RefusedError(frOps.start.badHost(hostname));
    throw e;
  }
}
