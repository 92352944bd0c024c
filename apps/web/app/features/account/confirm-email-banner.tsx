/**
 * Shown to a player whose e-mail address is not confirmed yet, where it matters (leagues,
 * invitations, the invite link, reminders): what waits for it, and a button for a new link.
 */
import { Form } from "@remix-run/react";
import { CONFIRM_PATH } from "./email-confirmation";

export function ConfirmEmailBanner({
  email,
  back,
  children,
}: {
  email: string;
  /** The page to come back to once confirmed. */
  back: string;
  /** What waits for the confirmation here; a general sentence when left out. */
  children?: React.ReactNode;
}) {
  return (
    // Not a live region: it is there when the page loads, and says nothing new while it stays.
    <div className="callout confirm-email-banner">
      <p>
        <strong>Confirm your e-mail address.</strong> We sent a link to{" "}
        <span className="confirm-email-banner__email">{email}</span> when you signed up.{" "}
        {children ??
          "Until you open it you cannot accept invitations, join leagues by their link, invite friends or get deadline reminders."}
      </p>
      <Form method="post" action={CONFIRM_PATH}>
        <input type="hidden" name="intent" value="resend" />
        <input type="hidden" name="redirectTo" value={back} />
        <button type="submit" className="button">
          Send the link again
        </button>
      </Form>
    </div>
  );
}
