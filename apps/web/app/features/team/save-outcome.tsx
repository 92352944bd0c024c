/** A save's outcome under a team builder: the message, then the rules it broke, if any. */
export interface SaveOutcomeProps {
  outcome: { ok: boolean; message: string; reasons: readonly string[] } | null;
  /** The class block: `alert` on the host's pages, `embed-alert` in the partner embed. */
  block: string;
}

export function SaveOutcome({ outcome, block }: SaveOutcomeProps) {
  if (!outcome) return null;
  return (
    <div className={`${block} ${block}--${outcome.ok ? "ok" : "error"}`}>
      <p className={`${block}__message`}>{outcome.message}</p>
      {outcome.reasons.length > 0 ? (
        <ul className={`${block}__reasons`}>
          {outcome.reasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
