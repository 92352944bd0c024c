/**
 * Accessible modals on the native <dialog>: focus moves in on open, Escape closes, focus returns
 * to the button that opened it. Without JavaScript the trigger is a plain form submit: the server
 * renders the same dialog already open (in the page flow), and its forms post as usual.
 */
import { type ReactNode, useEffect, useRef, useState } from "react";

let hydratedOnce = false;

/** False during the server render and the first client render, true after hydration. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(hydratedOnce);
  useEffect(() => {
    hydratedOnce = true;
    setHydrated(true);
  }, []);
  return hydrated;
}

const openers = new WeakMap<HTMLDialogElement, HTMLElement>();

/** Opens the dialog as a modal, remembering who opened it so focus can go back there. */
export function openDialog(dialog: HTMLDialogElement, opener?: HTMLElement | null): void {
  if (opener) openers.set(dialog, opener);
  if (dialog.open) dialog.close();
  dialog.showModal();
}

/**
 * A submit button that opens `dialogId` instead of submitting when JavaScript runs. The form it
 * sits in is the no-JavaScript path (a GET that renders the dialog open, or a POST the server
 * answers with a confirmation).
 */
export function DialogButton({
  dialogId,
  children,
  className,
  disabled,
  describedBy,
  name,
  value,
  beforeOpen,
}: {
  dialogId: string;
  children: ReactNode;
  className?: string;
  disabled?: boolean;
  describedBy?: string;
  name?: string;
  value?: string;
  /** Runs just before the dialog opens (a shared dialog learns which row it is about). */
  beforeOpen?: () => void;
}) {
  return (
    <button
      type="submit"
      name={name}
      value={value}
      className={className}
      disabled={disabled}
      aria-haspopup="dialog"
      aria-describedby={describedBy}
      onClick={(e) => {
        const dialog = document.getElementById(dialogId);
        if (!(dialog instanceof HTMLDialogElement)) return;
        e.preventDefault();
        beforeOpen?.();
        openDialog(dialog, e.currentTarget);
      }}
    >
      {children}
    </button>
  );
}

export function Modal({
  id,
  title,
  initiallyOpen,
  children,
  onClose,
  fallbackFocus,
}: {
  id: string;
  title: string;
  /** Rendered open by the server (the no-JavaScript path, or a confirmation the server asked). */
  initiallyOpen: boolean;
  children: ReactNode;
  onClose?: () => void;
  /** Where focus goes on close when the opener is gone (a removed member's Remove button). */
  fallbackFocus?: () => HTMLElement | null;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const fallbackRef = useRef(fallbackFocus);
  fallbackRef.current = fallbackFocus;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    // Server-rendered open: with JavaScript running, make it a real modal (focus trap, Escape).
    if (initiallyOpen && !dialog.matches(":modal")) openDialog(dialog);
    const handleClose = () => {
      const opener = openers.get(dialog);
      openers.delete(dialog);
      if (opener?.isConnected) opener.focus();
      else if (opener) fallbackRef.current?.()?.focus();
      onCloseRef.current?.();
    };
    dialog.addEventListener("close", handleClose);
    return () => dialog.removeEventListener("close", handleClose);
  }, [initiallyOpen]);

  return (
    <dialog
      ref={ref}
      id={id}
      className="lg-dialog"
      aria-labelledby={`${id}-title`}
      open={initiallyOpen || undefined}
    >
      <div className="lg-dialog__head">
        <h2 id={`${id}-title`} className="lg-dialog__title">
          {title}
        </h2>
        {/* method="dialog" closes the dialog natively, with or without JavaScript. */}
        <form method="dialog">
          <button type="submit" className="lg-icon-button" aria-label="Close">
            <span aria-hidden="true">×</span>
          </button>
        </form>
      </div>
      {children}
    </dialog>
  );
}

/**
 * A Cancel button closing the enclosing dialog. Without JavaScript formmethod="dialog" does it
 * natively; with JavaScript the click handler does (Remix's <Form> would otherwise submit it).
 */
export function CancelButton({ children = "Cancel" }: { children?: ReactNode }) {
  return (
    <button
      type="submit"
      formMethod="dialog"
      formNoValidate
      className="lg-button lg-button--ghost"
      onClick={(e) => {
        const dialog = e.currentTarget.closest("dialog");
        if (!dialog) return;
        e.preventDefault();
        dialog.close();
      }}
    >
      {children}
    </button>
  );
}
