import { formatPrice } from "@game/core/format";

export interface PlayerGreetingProps {
  username: string;
  ranking: number | null;
  points: number;
  bank: number;
  /** The ranking and score include a round whose results are provisional (decision 0171). */
  provisional?: boolean;
}

/** "Hi, name": the player's season ranking, score and the money left in their bank. */
export function PlayerGreeting(props: PlayerGreetingProps) {
  return (
    <section className="greeting card" aria-labelledby="greeting-heading">
      <h2 id="greeting-heading">Hi, {props.username}</h2>
      <dl className="greeting__stats">
        <div>
          <dt>Ranking</dt>
          <dd>
            {props.ranking ? `#${props.ranking}` : "Unranked"}
            {props.provisional ? <span className="greeting__provisional"> provisional</span> : null}
          </dd>
        </div>
        <div>
          <dt>Score</dt>
          <dd>
            {new Intl.NumberFormat("en-US").format(props.points)}
            {props.provisional ? <span className="greeting__provisional"> provisional</span> : null}
          </dd>
        </div>
        <div>
          <dt>Bank</dt>
          <dd>{formatPrice(props.bank)}</dd>
        </div>
      </dl>
    </section>
  );
}
