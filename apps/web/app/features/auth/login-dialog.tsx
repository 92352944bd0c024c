import type { Form } from "@remix-run/react";
import { type ComponentProps, type ComponentType, useEffect, useId, useRef } from "react";
import { AUTH_TITLES, AuthForm } from "./auth-form";
import type { AuthMode, AuthResult } from "./auth-result";

/** Whether the dialog is open, on which face, and where a login goes afterwards. */
export interface ModalState {
  open: boolean;
  mode: AuthMode;
  redirectTo: string | null;
}

export interface LoginDialogProps {
  state: ModalState;
  /** Each opening remounts the form (a fresh one, with no leftover errors). */
  openings: number;
  /** The address asked for it: the server renders it open (it works without JavaScript). */
  serverOpen: boolean;
  result: AuthResult | null | undefined;
  busy: boolean;
  FormComponent: ComponentType<ComponentProps<typeof Form>>;
  /** The page without the login parameters: the close link without JavaScript. */
  closeHref: string;
  onClose(): void;
  /** After the native dialog has closed (button, Escape, backdrop). */
  onClosed(): void;
  onSwitchMode(mode: AuthMode): void;
}

/**
 * The Login / Create Your Account dialog (`LoginModalProvider` renders it for visitors; its code
 * is fetched apart from the page's, docs/decisions/0178).
 */
export function LoginDialog(props: LoginDialogProps) {
  const { state, openings } = props;
  const dialogRef = useRef<HTMLDialogElement>(null);
  const headingId = useId();

  // Keep the native dialog in step with the state; focus the first field on open and on switch,
  // and again when a new opening remounts the form. A field the visitor already typed in (before
  // the JavaScript ran) keeps the focus.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a mode switch or a remount must refocus too
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
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
  }, [state.open, state.mode, openings]);

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a backdrop click; Escape closes it for keyboards
    <dialog
      ref={dialogRef}
      className="modal"
      aria-labelledby={headingId}
      open={props.serverOpen ? true : undefined}
      onClose={() => {
        // The close event is queued: ignore the one from turning the server's dialog into a modal.
        if (dialogRef.current?.open) return;
        props.onClosed();
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget) props.onClose();
      }}
    >
      <div className="modal-panel">
        <div className="modal-head">
          <h2 id={headingId}>{AUTH_TITLES[state.mode]}</h2>
          <a
            href={props.closeHref}
            className="modal-close"
            onClick={(event) => {
              event.preventDefault();
              props.onClose();
            }}
          >
            <span aria-hidden="true">×</span>
            <span className="visually-hidden">Close</span>
          </a>
        </div>
        <AuthForm
          key={`${state.mode}-${openings}`}
          mode={state.mode}
          result={props.result}
          redirectTo={state.redirectTo}
          busy={props.busy}
          FormComponent={props.FormComponent}
          onSwitchMode={props.onSwitchMode}
          headingId={headingId}
        />
      </div>
    </dialog>
  );
}
