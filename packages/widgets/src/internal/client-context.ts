/**
 * The API client a `<GravityProvider>` gives to everything below it: the hooks fetch through it
 * and portraits resolve against its `baseUrl`. Kept apart from the hooks so a component that only
 * needs the base URL (Portrait) does not pull the hooks in.
 */
import { createContext, useContext } from "react";
import type { GameClient } from "../client.js";

export const GameClientContext = createContext<GameClient | null>(null);

/** The provider's client, or null outside one. */
export function useOptionalGameClient(): GameClient | null {
  return useContext(GameClientContext);
}
