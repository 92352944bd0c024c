import { useLocation } from "@remix-run/react";
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from "react";
import { deferredPart, usePart } from "~/utils/deferred-part";
import type { AuthMode } from "./auth-result";
import { fromUrl, type LoginRequest } from "./login-url";

export interface OpenLoginOptions {
  mode?: AuthMode;
  /** Where to go after logging in (a path of this site); default /homepage. */
  redirectTo?: string | null;
}

interface LoginModalApi {
  open(options?: OpenLoginOptions): void;
}

const LoginModalContext = createContext<LoginModalApi>({ open: () => {} });

/** A plain left click (not one opening a new tab): the modal may take it over. */
export function isPlainClick(event: {
  button: number;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}) {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

/** Opens the login modal from anywhere (nav button, Sign In to Play, ...). */
export function useLoginModal(): LoginModalApi {
  return useContext(LoginModalContext);
}

/**
 * The modal's state and dialog (the form, its fields and messages): signed-in players never see
 * them, so pages do not carry them (docs/decisions/0178, 0180). A `?login=1` address renders it
 * on arrival.
 */
const loginModalHost = deferredPart(
  () => import("./login-modal-host").then((m) => m.LoginModalHost),
  (url) => fromUrl(url.search) !== null,
);

/**
 * Provides `useLoginModal()` and, for visitors, the Login / Create Your Account dialog
 * (`LoginModalHost`), from its first opening on, or from an address that asks for it.
 */
export function LoginModalProvider(props: { signedIn: boolean; children: ReactNode }) {
  const location = useLocation();
  const [request, setRequest] = useState<LoginRequest | null>(null);

  const open = useCallback((options: OpenLoginOptions = {}) => {
    const opener = document.activeElement as HTMLElement | null;
    const ask = () =>
      setRequest((last) => ({
        mode: options.mode ?? "login",
        redirectTo: options.redirectTo ?? null,
        opener,
        count: (last?.count ?? 0) + 1,
      }));
    if (loginModalHost.value) return ask();
    loginModalHost.load().then(ask, () => {
      // Its code cannot be fetched: the address that opens it, rendered by the server.
      const params = new URLSearchParams(window.location.search);
      params.set("login", options.mode === "signup" ? "signup" : "1");
      if (options.redirectTo) params.set("redirectTo", options.redirectTo);
      window.location.assign(`${window.location.pathname}?${params}`);
    });
  }, []);

  // The address asks for it, or it was opened: it stays in the page (closed) from then on.
  const asked = fromUrl(location.search) !== null;
  const [wanted, setWanted] = useState(asked);
  if ((asked || request) && !wanted) setWanted(true);
  // A visitor may open it any moment: its code comes when the page is idle.
  const Host = usePart(loginModalHost, wanted && !props.signedIn, !props.signedIn);
  // Signing in removes it; a later logout brings it back closed.
  useEffect(() => {
    if (!props.signedIn) return;
    setWanted(false);
    setRequest(null);
  }, [props.signedIn]);

  const api = useMemo(() => ({ open }), [open]);

  return (
    <LoginModalContext.Provider value={api}>
      {props.children}
      {props.signedIn || !wanted || !Host ? null : <Host request={request} />}
    </LoginModalContext.Provider>
  );
}
