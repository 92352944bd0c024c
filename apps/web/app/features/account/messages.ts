/** What the account forms (forgot, reset, change password) answer; shared by server and pages. */

/** The one answer to a reset request, whether or not an account uses the e-mail. */
export const RESET_LINK_SENT =
  "If an account uses that e-mail address, we have sent it a link to choose a new password. The link works for one hour, once.";
export const RESET_LINK_INVALID =
  "This link to reset your password is invalid, already used or expired. Ask for a new one.";
export const PASSWORD_RESET_DONE =
  "Your password is changed, and every device that was signed in has been signed out. Log in with your new password.";
/** Where a successful reset sends the player: the login page, saying PASSWORD_RESET_DONE. */
export const PASSWORD_RESET_LOGIN = "/login?reset=done";
export const WRONG_CURRENT_PASSWORD = "That is not your current password.";
export const SAME_PASSWORD = "Choose a password different from your current one.";
export const PASSWORD_CHANGED =
  "Your password is changed. Your other devices have been signed out.";

export interface AccountFormResult {
  ok?: boolean;
  message?: string;
  formError?: string;
  fieldErrors?: Partial<Record<"email" | "password" | "current", string>>;
  values?: { email?: string };
}
