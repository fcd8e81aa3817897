import { LoginView } from "./features/auth/login-view.tsx";
import { ApiError } from "./lib/api.ts";

/** There is no router: the view is chosen by state and URL (spec section 2). */
export function App() {
  return (
    <LoginView
      onSubmit={async (email, password) => {
        // Wired to the typed client once the accounts API lands (issue 3).
        const res = await fetch("/api/auth/login", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ email, password }),
        });
        const body = (await res.json().catch(() => ({}))) as { detail?: string };
        if (!res.ok) throw new ApiError(res.status, body.detail);
        window.location.assign("/");
      }}
    />
  );
}
