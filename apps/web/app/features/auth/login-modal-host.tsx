import { useFetcher, useLocation, useNavigate } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import type { AuthResult } from "./auth-result";
import { LoginDialog, type ModalState } from "./login-dialog";
import { fromUrl, type LoginRequest, withoutLoginParams } from "./login-url";

/**
 * The login modal's state and its dialog, for visitors: fetched apart from the page's code with
 * the dialog (docs/decisions/0178, 0180). `LoginModalProvider` mounts it at the first opening, or
 * when the address asks for it, and keeps it while the visitor stays signed out.
 *
 * A native modal <dialog>: the page behind is inert (focus stays inside), Escape closes it, and
 * focus returns to what opened it. Without JavaScript a `?login=1` URL renders it open in the
 * page, and the forms post to /login and /signup like any form.
 */
export function LoginModalHost(props: { request: LoginRequest | null }) {
  const { request } = props;
  const location = useLocation();
  const navigate = useNavigate();
  const fetcher = useFetcher<AuthResult>({ key: "login-modal" });
  // Mounted by a link to `?login=1` (a client-side navigation), what has the focus opened it; on
  // arrival that is the page's body, or a field of the dialog the server rendered.
  const [focused] = useState(() =>
    typeof document === "undefined" ? null : (document.activeElement as HTMLElement | null),
  );
  const openerRef = useRef<HTMLElement | null>(
    request?.opener ??
      (focused && focused !== document.body && !focused.closest("dialog") ? focused : null),
  );

  const initial = fromUrl(location.search);
  const [state, setState] = useState<ModalState>(() => {
    const first = request ?? initial;
    return {
      open: first !== null,
      mode: first?.mode ?? "login",
      redirectTo: first?.redirectTo ?? null,
    };
  });

  // The last answer shown before this opening: a reopened modal starts clean.
  const [staleData, setStaleData] = useState<AuthResult | undefined>(undefined);
  const dataRef = useRef(fetcher.data);
  dataRef.current = fetcher.data;
  // Each opening starts a fresh form (no leftover errors from the last time).
  const [openings, setOpenings] = useState(request ? 1 : 0);

  const show = useCallback((wanted: Omit<LoginRequest, "count">) => {
    openerRef.current = wanted.opener;
    setStaleData(dataRef.current);
    setOpenings((n) => n + 1);
    setState({ open: true, mode: wanted.mode, redirectTo: wanted.redirectTo });
  }, []);

  // Each later `open()` (the one that mounted this was handled above).
  const handled = useRef(request?.count ?? 0);
  useEffect(() => {
    if (!request || request.count === handled.current) return;
    handled.current = request.count;
    show(request);
  }, [request, show]);

  // A client-side navigation to a `?login=1` link opens it too. The address it arrived with was
  // opened by the first render (the server's, or this one): opening it again would remount the
  // form and wipe what the visitor typed before the page's JavaScript ran.
  const arrivedWith = useRef<string | null>(location.search);
  useEffect(() => {
    const wanted = fromUrl(location.search);
    const arrival = arrivedWith.current === location.search;
    arrivedWith.current = null;
    if (wanted && !arrival) {
      show({ ...wanted, opener: document.activeElement as HTMLElement | null });
    }
  }, [location.search, show]);

  const close = useCallback(() => setState((s) => ({ ...s, open: false })), []);

  // A link in the dialog that leads to another page ("Forgot your password?", the terms) closes it.
  const shownPath = useRef(location.pathname);
  useEffect(() => {
    if (shownPath.current === location.pathname) return;
    shownPath.current = location.pathname;
    if (!fromUrl(location.search)) close();
  }, [location.pathname, location.search, close]);

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

  return (
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
  );
}
