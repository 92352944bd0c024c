import { useLocation, useNavigation } from "@remix-run/react";
import type { CSSProperties, ReactNode } from "react";

/** What the backdrop needs of the current game (serialisable, for loaders to return). */
export interface BackdropGame {
  id: number;
  name: string;
  cover: string;
  logo: string;
}

/** Picks the backdrop's fields from an event row (keeps loader payloads small). */
export function toBackdropGame(
  game: { id: number; name: string; cover: string; logo: string } | null | undefined,
): BackdropGame | null {
  return game ? { id: game.id, name: game.name, cover: game.cover, logo: game.logo } : null;
}

/** "Loading game data..." while this page loads new data on the client (a tab, another game). */
export function useGameLoading(): boolean {
  const navigation = useNavigation();
  const location = useLocation();
  return navigation.state === "loading" && navigation.location.pathname === location.pathname;
}

export interface GameBackdropProps {
  /** The current game; null shows the plain site background. */
  game: BackdropGame | null;
  /** The page's heading (the only h1 of the page). */
  title: ReactNode;
  /** A line under the heading; defaults to the game's name. */
  subtitle?: ReactNode;
  children?: ReactNode;
}

/**
 * The frame of the ranking, about and view-racers screens: the current game's cover as the
 * background, its logo on top, then the page. Shows "Loading game data..." while the page is
 * fetching (announced politely to screen readers).
 */
export function GameBackdrop({ game, title, subtitle, children }: GameBackdropProps) {
  const loading = useGameLoading();
  const style = game ? ({ "--cover": `url("${game.cover}")` } as CSSProperties) : undefined;
  return (
    <main className="backdrop" data-game={game?.id} style={style}>
      <header className="backdrop-head">
        {game ? (
          <img className="backdrop-logo" src={game.logo} alt={`${game.name} logo`} height="72" />
        ) : null}
        <h1>{title}</h1>
        {subtitle !== undefined ? (
          <p className="backdrop-subtitle">{subtitle}</p>
        ) : game ? (
          <p className="backdrop-subtitle">{game.name}</p>
        ) : null}
      </header>
      <div className="backdrop-status" role="status" aria-live="polite">
        {loading ? "Loading game data..." : null}
      </div>
      <div className="backdrop-body" aria-busy={loading || undefined}>
        {children}
      </div>
    </main>
  );
}
