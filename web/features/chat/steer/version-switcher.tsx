import { frSteer } from "../../../i18n/fr-steer.ts";
import type { VersionInfo } from "./steer.api.ts";

const t = frSteer;

/** « ‹ 1/2 › » under a question asked more than once: shows the previous or next version. */
export function VersionSwitcher({ info, disabled, onSwitch }: { info: VersionInfo; disabled: boolean; onSwitch(group: number, version: number): void }) {
  return (
    <nav className="version-switcher" aria-label={t.versionLabel(info.version, info.count)}>
      <button
        type="button"
        className="icon-button"
        aria-label={t.previousVersion}
        disabled={disabled || info.version <= 1}
        onClick={() => onSwitch(info.group, info.version - 1)}
      >
        ‹
      </button>
      <span className="version-count">{t.versionOf(info.version, info.count)}</span>
      <button
        type="button"
        className="icon-button"
        aria-label={t.nextVersion}
        disabled={disabled || info.version >= info.count}
        onClick={() => onSwitch(info.group, info.version + 1)}
      >
        ›
      </button>
    </nav>
  );
}
