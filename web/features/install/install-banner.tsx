import { type ReactNode, useEffect, useRef, useState } from "react";
import { CloseIcon } from "../../components/ui/icons.tsx";
import { fr } from "../../i18n/fr.ts";
import { hasFlag, rememberFlag } from "../../lib/storage.ts";

const t = fr.install;
/** docs/PRODUCT.md#install-banner: shown 3 s after load on iOS/Android when not installed; dismissal remembered 24 h. */
export const INSTALL_DELAY_MS = 3000;
export const INSTALL_DISMISS_MS = 24 * 60 * 60_000;
export const INSTALL_KEY = "unisson_install_dismissed";

type Platform = "ios" | "android" | null;
type PromptEvent = Event & { prompt(): Promise<void> };

export function mobilePlatform(ua: string, touchPoints = 0): Platform {
  if (/iPhone|iPad|iPod/i.test(ua) || (/Macintosh/.test(ua) && touchPoints > 1)) return "ios";
  if (/Android/i.test(ua)) return "android";
  return null;
}

function installed(): boolean {
  const standalone = typeof matchMedia === "function" && matchMedia("(display-mode: standalone)").matches;
  return standalone || (navigator as Navigator & { standalone?: boolean }).standalone === true;
}

/** One banner at a time on the bottom dock: while this one shows, `otherwise` (the referral banner) waits. */
export function InstallBanner({ otherwise = null }: { otherwise?: ReactNode }) {
  const [platform] = useState(() => mobilePlatform(navigator.userAgent, navigator.maxTouchPoints ?? 0));
  const [show, setShow] = useState(false);
  const prompt = useRef<PromptEvent | null>(null);

  useEffect(() => {
    if (!platform || installed() || hasFlag(INSTALL_KEY)) return;
    // Android's own install prompt, kept for our button instead of the browser's mini-bar.
    const onPrompt = (e: Event) => {
      e.preventDefault();
      prompt.current = e as PromptEvent;
    };
    window.addEventListener("beforeinstallprompt", onPrompt);
    const timer = setTimeout(() => setShow(true), INSTALL_DELAY_MS);
    return () => {
      clearTimeout(timer);
      window.removeEventListener("beforeinstallprompt", onPrompt);
    };
  }, [platform]);

  if (!show) return <>{otherwise}</>;
  const dismiss = () => {
    rememberFlag(INSTALL_KEY, INSTALL_DISMISS_MS);
    setShow(false);
  };
  return (
    <aside className="install-banner" aria-label={t.title}>
      <span className="brand-mark" aria-hidden="true" />
      <div>
        <strong>{t.title}</strong>
        <p className="small">{platform === "ios" ? t.ios : t.text}</p>
      </div>
      {platform === "android" && prompt.current && (
        <button
          type="button"
          className="primary small-button"
          onClick={() => {
            void prompt.current?.prompt();
            dismiss();
          }}
        >
          {t.install}
        </button>
      )}
      <button type="button" className="icon-button" aria-label={t.later} onClick={dismiss}>
        <CloseIcon />
      </button>
    </aside>
  );
}
