import { type InputHTMLAttributes, useState } from "react";
import { fr } from "../../i18n/fr.ts";
import { EyeIcon, EyeOffIcon } from "./icons.tsx";

/** A password field with its show/hide toggle; the toggle says what it will do. */
export function PasswordInput(props: Omit<InputHTMLAttributes<HTMLInputElement>, "type">) {
  const [show, setShow] = useState(false);
  return (
    <span className="input-with-button">
      <input {...props} type={show ? "text" : "password"} />
      <button
        type="button"
        className="ghost"
        aria-label={show ? fr.common.hidePassword : fr.common.showPassword}
        aria-pressed={show}
        onClick={() => setShow((s) => !s)}
      >
        {show ? <EyeOffIcon /> : <EyeIcon />}
      </button>
    </span>
  );
}
