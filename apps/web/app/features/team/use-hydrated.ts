import { useEffect, useState } from "react";

/**
 * False during the server render and the first client render (so hydration matches), true
 * afterwards. Enhancements that need JavaScript (modal buttons, the ticking clock) switch on here.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
