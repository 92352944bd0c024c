import { useFetcher, useLocation, useNavigate } from "@remix-run/react";
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from "react";
import { AUTH_TITLES, AuthForm } from "./auth-form";
import type { AuthMode, AuthResult } from "./auth-result";

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

interface ModalState {
  open: boolean;
  mode: AuthMode;
  redirectTo: string | null;
}

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
  const dialogRef = useRef<HTMLDialogElement>(null);
  const openerRef = useRef<HTMLElement | null>(null);
  const headingId = useId();

  const initial = fromUrl(location.search);
  const [state, setState] = useState<ModalState>({
    open: initial !== null,
    mode: initial?.mode ?? "login",
    redirectTo: initial?.redirectTo ?? null,
  });

  // The last answer shown before this opening: a reopened modal starts clean.
  const [staleData, setStaleData] = useState<AuthResult | undefined>(undefined);
  const dataRef = useRef(fetcher.data);
  dataRef.current = fetcher.data;
  // Each opening starts a fresh form (no leftover errors from the last time).
  const [openings, setOpenings] = useState(0);

  const open = useCallback((options: OpenLoginOptions = {}) => {
    openerRef.current = document.activeElement as HTMLElement | null;
    setStaleData(dataRef.current);
    setOpenings((n) => n + 1);
    setState({ open: true, mode: options.mode ?? "login", redirectTo: options.redirectTo ?? null });
  }, []);

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

  // Keep the native dialog in step with the state; focus the first field on open and on switch,
  // and again when a new opening remounts the form. A field the visitor already typed in (before
  // the JavaScript ran) keeps the focus.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a mode switch or a remount must refocus too
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog || props.signedIn) return;
    if (state.open) {
      // Rendered open by the server (no JavaScript yet): reopen it as a real modal.
      const typing = dialog.contains(document.activeElement) ? document.activeElement : null;
      if (dialog.open && !dialog.matches(":modal")) dialog.close();
      if (!dialog.open) dialog.showModal();
      const first = dialog.querySelector<HTMLInputElement>(
        "input:not([type=hidden]):not([tabindex='-1'])",
      );
      (typing instanceof HTMLInputElement ? typing : first)?.focus();
    } else if (dialog.open) {
      dialog.close();
    }
  }, [state.open, state.mode, openings, props.signedIn]);

  // Closing (button, Escape, backdrop): drop the URL's login parameters, give focus back.
  const onClosed = () => {
    // The close event is queued: ignore the one from turning the server's dialog into a modal.
    if (dialogRef.current?.open) return;
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
  const title = AUTH_TITLES[state.mode];
  const closeHref = withoutLoginParams(location.pathname, location.search, location.hash);

  return (
    <LoginModalContext.Provider value={api}>
      {props.children}
      {props.signedIn ? null : (
        // biome-ignore lint/a11y/useKeyWithClickEvents: a backdrop click; Escape closes it for keyboards
        <dialog
          ref={dialogRef}
          className="modal"
          aria-labelledby={headingId}
          // The server renders it open when the URL asks for it (works without JavaScript).
          open={initial !== null ? true : undefined}
          onClose={onClosed}
          onClick={(event) => {
            if (event.target === event.currentTarget) close();
          }}
        >
          <div className="modal-panel">
            <div className="modal-head">
              <h2 id={headingId}>{title}</h2>
              <a
                href={closeHref}
                className="modal-close"
                onClick={(event) => {
                  event.preventDefault();
                  close();
                }}
              >
                <span aria-hidden="true">×</span>
                <span className="visually-hidden">Close</span>
              </a>
            </div>
            <AuthForm
              key={`${state.mode}-${openings}`}
              mode={state.mode}
              result={fetcher.data === staleData ? null : fetcher.data}
              redirectTo={state.redirectTo}
              busy={fetcher.state !== "idle"}
              FormComponent={fetcher.Form}
              onSwitchMode={(mode) => setState((s) => ({ ...s, mode }))}
              headingId={headingId}
            />
          </div>
        </dialog>
      )}
    </LoginModalContext.Provider>
  );
}
