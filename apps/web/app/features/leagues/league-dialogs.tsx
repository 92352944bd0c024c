/** The league modals: Create a League, Invite Member, and the leave/delete/remove confirmations. */
import { Form, useLocation, useNavigation } from "@remix-run/react";
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from "react";
import { deferredPart } from "~/utils/deferred-part";
import { fieldErrors } from "~/utils/field-errors";
import { LEAGUE_ACTION, type LeagueIntent } from "./forms";
import { CancelButton, Modal, useHydrated } from "./modal";

export const createDialogId = "lg-create-dialog";
export const inviteDialogId = (leagueId: number) => `lg-invite-dialog-${leagueId}`;
export type ConfirmIntent = Extract<LeagueIntent, "leave" | "delete" | "remove">;
/** One dialog per league and intent (Remove's names the member it was opened for). */
export const confirmDialogId = (intent: ConfirmIntent, leagueId: number) =>
  `lg-${intent}-dialog-${leagueId}`;

/** The forms a dialog checks before posting, by their schema's name. */
type CheckedForm = "createLeagueFormSchema" | "inviteFormSchema";

/**
 * The forms' shared check (zod and the name rules: more than the rest of the page's own code),
 * fetched once a league form is first focused: the event page and the league pages carry the
 * dialogs, few visits open them (docs/decisions/0178). Opening a dialog puts the focus in it, so
 * the check is usually there before anything is typed. No address shows it on arrival.
 */
const formChecks = deferredPart(
  () => import("./form-schemas"),
  () => false,
);

/** The check, or undefined when it cannot be fetched (offline): the server checks the post alone. */
const loadChecks = () => formChecks.load().catch(() => undefined);

/**
 * A dialog form checked with its shared schema before posting. While the post is on its way the
 * submit button is busy; when the page has reloaded with the answer, the dialog closes and the
 * form is cleared (the answer itself shows as a notice on the panel).
 */
function useDialogForm(form: CheckedForm, dialogId: string) {
  const navigation = useNavigation();
  const formRef = useRef<HTMLFormElement>(null);
  const submitted = useRef(false);
  /** A post held for the check once: the next one goes, checked or (offline) not. */
  const waited = useRef(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const busy = submitted.current && navigation.state !== "idle";

  useEffect(() => {
    if (navigation.state !== "idle" || !submitted.current) return;
    submitted.current = false;
    formRef.current?.reset();
    const dialog = document.getElementById(dialogId);
    if (dialog instanceof HTMLDialogElement && dialog.open) dialog.close();
  }, [navigation.state, dialogId]);

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    if (!formChecks.value && !waited.current) {
      // Sent before the check arrived: wait for it (or for its failure), then send again.
      e.preventDefault();
      const target = e.currentTarget;
      const submitter = (e.nativeEvent as SubmitEvent).submitter;
      waited.current = true;
      void loadChecks().then(() => target.requestSubmit(submitter));
      return;
    }
    waited.current = false;
    const values = Object.fromEntries(new FormData(e.currentTarget));
    const parsed = formChecks.value?.[form].safeParse(values);
    if (parsed && !parsed.success) {
      e.preventDefault();
      const found = fieldErrors(parsed.error);
      setErrors(found);
      const first = Object.keys(found)[0];
      const input = e.currentTarget.querySelector<HTMLInputElement>(`[name="${first}"]`);
      input?.focus();
      return;
    }
    setErrors({});
    submitted.current = true;
  }

  return { formRef, errors, busy, onSubmit, clearErrors: () => setErrors({}) };
}

function Hidden({ fields }: { fields: Record<string, string | number> }) {
  return (
    <>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

function FieldError({ id, message }: { id: string; message?: string }) {
  return (
    <p id={id} className="lg-field-error" hidden={!message}>
      {message}
    </p>
  );
}

/** The shell of a dialog with fields: hidden values, the fields, Cancel and a busy submit. */
function FieldDialog(props: {
  id: string;
  title: string;
  initiallyOpen: boolean;
  /** The schema (in `form-schemas.ts`) the form is checked with before posting. */
  schema: CheckedForm;
  hidden: Record<string, string | number>;
  submit: string;
  busyLabel: string;
  children: (errors: Record<string, string>) => ReactNode;
}) {
  const hydrated = useHydrated();
  const form = useDialogForm(props.schema, props.id);
  return (
    <Modal
      id={props.id}
      title={props.title}
      initiallyOpen={props.initiallyOpen}
      onClose={form.clearErrors}
    >
      <Form
        ref={form.formRef}
        method="post"
        action={LEAGUE_ACTION}
        noValidate={hydrated}
        onSubmit={form.onSubmit}
        onFocus={() => void loadChecks()}
        preventScrollReset
        className="lg-form"
      >
        <Hidden fields={props.hidden} />
        {props.children(form.errors)}
        <div className="lg-form__actions">
          <CancelButton />
          <button type="submit" className="lg-button" disabled={form.busy}>
            {form.busy ? props.busyLabel : props.submit}
          </button>
        </div>
      </Form>
    </Modal>
  );
}

export function CreateLeagueDialog({
  game,
  initiallyOpen,
}: {
  /** The event whose team entitles the player to create a league. */
  game: number;
  initiallyOpen: boolean;
}) {
  const { pathname } = useLocation();
  const inputId = useId();
  const errorId = `${inputId}-error`;
  return (
    <FieldDialog
      id={createDialogId}
      title="Create a League"
      initiallyOpen={initiallyOpen}
      schema="createLeagueFormSchema"
      hidden={{ intent: "create", game, redirectTo: pathname }}
      submit="Create League"
      busyLabel="Creating…"
    >
      {(errors) => (
        <>
          <label htmlFor={inputId}>League Name</label>
          <input
            id={inputId}
            name="name"
            type="text"
            required
            maxLength={60}
            autoComplete="off"
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={errorId}
          />
          <FieldError id={errorId} message={errors.name} />
        </>
      )}
    </FieldDialog>
  );
}

export function InviteDialog({
  league,
  initiallyOpen,
}: {
  league: { id: number; name: string };
  initiallyOpen: boolean;
}) {
  const { pathname } = useLocation();
  const inputId = useId();
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  return (
    <FieldDialog
      id={inviteDialogId(league.id)}
      title="Invite Member"
      initiallyOpen={initiallyOpen}
      schema="inviteFormSchema"
      hidden={{ intent: "invite", leagueId: league.id, redirectTo: pathname }}
      submit="Send Invitation"
      busyLabel="Sending…"
    >
      {(errors) => (
        <>
          <p id={hintId} className="lg-muted">
            We will e-mail your guest a link to join <strong>{league.name}</strong>.
          </p>
          <label htmlFor={inputId}>Guest Email</label>
          <input
            id={inputId}
            name="email"
            type="email"
            required
            maxLength={254}
            autoComplete="off"
            inputMode="email"
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={`${hintId} ${errorId}`}
          />
          <FieldError id={errorId} message={errors.email} />
        </>
      )}
    </FieldDialog>
  );
}

const CONFIRM_COPY = {
  leave: { title: "Leave league?", button: "Leave League" },
  delete: { title: "Delete league?", button: "Delete League" },
  remove: { title: "Remove member?", button: "Remove Member" },
} as const;

export function ConfirmDialog({
  intent,
  league,
  initiallyOpen,
  fields,
  fallbackFocus,
  children,
}: {
  intent: ConfirmIntent;
  league: { id: number; name: string };
  initiallyOpen: boolean;
  /** More hidden fields the action needs (Remove: the member's id). */
  fields?: Record<string, string | number>;
  fallbackFocus?: () => HTMLElement | null;
  children: React.ReactNode;
}) {
  const { pathname } = useLocation();
  const navigation = useNavigation();
  const id = confirmDialogId(intent, league.id);
  const submitted = useRef(false);
  // Once the answer has loaded, close: the card stays on the page after a removal.
  useEffect(() => {
    if (navigation.state !== "idle" || !submitted.current) return;
    submitted.current = false;
    const dialog = document.getElementById(id);
    if (dialog instanceof HTMLDialogElement && dialog.open) dialog.close();
  }, [navigation.state, id]);
  const busy =
    navigation.state !== "idle" &&
    navigation.formData?.get("intent") === intent &&
    navigation.formData?.get("leagueId") === String(league.id);
  const copy = CONFIRM_COPY[intent];
  return (
    <Modal id={id} title={copy.title} initiallyOpen={initiallyOpen} fallbackFocus={fallbackFocus}>
      <Form
        method="post"
        action={LEAGUE_ACTION}
        preventScrollReset
        className="lg-form"
        onSubmit={() => {
          submitted.current = true;
        }}
      >
        <Hidden
          fields={{
            intent,
            leagueId: league.id,
            ...fields,
            confirmed: "yes",
            redirectTo: pathname,
          }}
        />
        <div className="lg-confirm-text">{children}</div>
        <div className="lg-form__actions">
          <CancelButton />
          <button type="submit" className="lg-button lg-button--danger" disabled={busy}>
            {busy ? "Working…" : copy.button}
          </button>
        </div>
      </Form>
    </Modal>
  );
}
