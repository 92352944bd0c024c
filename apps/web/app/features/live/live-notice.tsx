/**
 * Says that a page's points are provisional, or that it will move by itself (docs/decisions/0171).
 * A status region: a screen reader hears it when it appears, as results start coming in.
 */
import type { LiveFollow } from "./use-live-round";

export function LiveNotice({
  live,
  provisional,
  className = "",
}: {
  live: LiveFollow | null;
  provisional: boolean;
  className?: string;
}) {
  const text = provisional
    ? "Provisional: results are coming in. Points and ranks may still change until the final results."
    : live
      ? "Teams are locked: this page updates by itself when results come in."
      : null;
  return (
    <p
      role="status"
      className={`live-notice ${provisional ? "live-notice--provisional" : ""} ${className}`.trim()}
      hidden={text === null}
      data-testid="live-notice"
    >
      {provisional ? <strong className="live-notice__badge">Live</strong> : null} {text}
    </p>
  );
}
