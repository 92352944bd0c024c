import { useFetcher, useLocation, useNavigate } from "@remix-run/react";
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { deferredPart, usePart } from "~/utils/deferred-part";
import type { AuthMode, AuthResult } from "./auth-result";
// Types only: the dialog's code is fetched apart (below).
import type { ModalState } from "./login-dialog";

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
 * The URL parameters that open the modal on arrival: `?login=1` (or `?login=signup`) with an
 * optional `redirectTo`. `requireUser()` sends visitors to such a link.
 */
function fromUrl(search: string): { mode: AuthMode; redirectTo: string | null } | null {
  const params = new URLSearchParams(search);
  const login = params.get("login");
  if (!login) return null;
  return { mode: login === "signup" ? "signup" : "login", redirectTo: params.get("redirectTo") };
}

function withoutLoginParams(pathname: string, search: string, hash: string): string {
  const params = new URLSearchParams(search);
  params.delete("login");
  params.delete("redirectTo");
  const rest = params.toString();
  return `${pathname}${rest ? `?${rest}` : ""}${hash}`;
}

/**
 * The dialog's code (the form, its fields and messages): signed-in players never see it, so pages
 * do not carry it (docs/decisions/0178). A `?login=1` address renders it on arrival.
 */
const loginDialog = deferredPart(
  () => import("./login-dialog").then((m) => m.LoginDialog),
  (url) => fromUrl(url.search) !== null,
);

/**
 * Provides `useLoginModal()` and renders the Login / Create Your Account dialog for visitors.
 * A native modal <dialog>: the page behind is inert (focus stays inside), Escape closes it, and
 * focus returns to what opened it. Without JavaScript a `?login=1` URL renders it open in the
 * page, and the forms post to /login and /signup like any form.
 */
export function LoginModalProvider(props: { signedIn: boolean; children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  const fetcher = useFetcher<AuthResult>({ key: "login-modal" });
  const openerRef = useRef<HTMLElement | null>(null);

  const initial = fromUrl(location.search);
  const [state, setState] = useState<ModalState>({
    open: initial !== null,
    mode: initial?.mode ?? "login",
    redirectTo: initial?.redirectTo ?? null,
  });
  // The dialog is in the page from its first opening on (closing it keeps it, closed).
  const [shown, setShown] = useState(initial !== null);

  // The last answer shown before this opening: a reopened modal starts clean.
  const [staleData, setStaleData] = useState<AuthResult | undefined>(undefined);
  const dataRef = useRef(fetcher.data);
  dataRef.current = fetcher.data;
  // Each opening starts a fresh form (no leftover errors from the last time).
  const [openings, setOpenings] = useState(0);

  const open = useCallback((options: OpenLoginOptions = {}) => {
    openerRef.current = document.activeElement as HTMLElement | null;
    const show = () => {
      setStaleData(dataRef.current);
      setOpenings((n) => n + 1);
      setShown(true);
      setState({
        open: true,
        mode: options.mode ?? "login",
        redirectTo: options.redirectTo ?? null,
      });
    };
    if (loginDialog.value) return show();
    loginDialog.load().then(show, () => {
      // Its code cannot be fetched: the address that opens it, rendered by the server.
      const params = new URLSearchParams(window.location.search);
      params.set("login", options.mode === "signup" ? "signup" : "1");
      if (options.redirectTo) params.set("redirectTo", options.redirectTo);
      window.location.assign(`${window.location.pathname}?${params}`);
    });
  }, []);

  // A visitor may open it any moment: its code comes when the page is idle.
  const LoginDialog = usePart(loginDialog, false, !props.signedIn);

  // A client-side navigation to a `?login=1` link opens it too. The address it arrived with was
  // opened by the server's render: opening it again would remount the form and wipe what the
  // visitor typed before the page's JavaScript ran.
  const arrivedWith = useRef<string | null>(location.search);
  useEffect(() => {
    const wanted = fromUrl(location.search);
    const arrival = arrivedWith.current === location.search;
    arrivedWith.current = null;
    if (wanted && !arrival) open(wanted);
  }, [location.search, open]);

  const close = useCallback(() => setState((s) => ({ ...s, open: false })), []);

  // A link in the dialog that leads to another page ("Forgot your password?", the terms) closes it.
  const shownPath = useRef(location.pathname);
  useEffect(() => {
    if (shownPath.current === location.pathname) return;
    shownPath.current = location.pathname;
    if (!fromUrl(location.search)) close();
  }, [location.pathname, location.search, close]);

  // Signing in removes the dialog; it must start closed when a later logout brings it back.
  useEffect(() => {
    if (props.signedIn) setState((s) => (s.open ? { ...s, open: false } : s));
  }, [props.signedIn]);

  // Closed (button, Escape, backdrop): drop the URL's login parameters, give focus back.
  const onClosed = () => {
    if (state.open) setState((s) => ({ ...s, open: false }));
    if (fromUrl(location.search)) {
      navigate(withoutLoginParams(location.pathname, location.search, location.hash), {
        replace: true,
        preventScrollReset: true,
      });
    }
    const opener = openerRef.current;
    openerRef.current = null;
    // Opened by the address (a protected page sent the visitor here): nothing opened it, so
    // focus goes to the page's content rather than being lost on the body.
    if (opener?.isConnected && opener !== document.body) opener.focus();
    else document.getElementById("main")?.focus();
  };

  const api = useMemo(() => ({ open }), [open]);

  return (
    <LoginModalContext.Provider value={api}>
      {props.children}
      {props.signedIn || !shown || !LoginDialog ? null : (
        <LoginDialog
          state={state}
          openings={openings}
          serverOpen={initial !== null}
          result={fetcher.data === staleData ? null : fetcher.data}
          busy={fetcher.state !== "idle"}
          FormComponent={fetcher.Form}
          closeHref={withoutLoginParams(location.pathname, location.search, location.hash)}
          onClose={close}
          onClosed={onClosed}
          onSwitchMode={(mode) => setState((s) => ({ ...s, mode }))}
        />
      )}
    </LoginModalContext.Provider>
  );
}
