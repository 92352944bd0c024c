/**
 * One-time notices for the home screen, the way the league notices work: a page that sends the
 * player home adds a short code to the URL (`/?notice=game-not-found`), the home screen turns it
 * into a sentence and then takes the code out of the address bar, so a reload does not repeat it.
 * Only known codes are shown, so a crafted link cannot put words on the page.
 */
export const HOME_NOTICE_PARAM = "notice";

export const HOME_NOTICES = {
  /** The spec's error catalogue: "Game missing". */
  "game-not-found": "Game not found.",
} as const satisfies Record<string, string>;

export type HomeNoticeCode = keyof typeof HOME_NOTICES;

/** The home screen carrying `code`. */
export function homeWithNotice(code: HomeNoticeCode): string {
  return `/?${HOME_NOTICE_PARAM}=${code}`;
}

/** The sentence for a code from the URL, or null for a missing or unknown one. */
export function homeNoticeText(code: string | null | undefined): string | null {
  return typeof code === "string" && Object.hasOwn(HOME_NOTICES, code)
    ? HOME_NOTICES[code as HomeNoticeCode]
    : null;
}
