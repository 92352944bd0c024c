/**
 * The few React APIs the widgets use, served by Preact's core (the build aliases `react` and
 * `react-dom` here). Preact's `compat` layer would add about 2 KB gzip for features the widgets
 * do not use (class-component APIs, `onChange` rewriting, SVG attribute renaming); the embed's
 * browser test renders every widget through this shim.
 */
import { render } from "preact";

export { createContext, createElement, Fragment, render } from "preact";
export {
  useCallback,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from "preact/hooks";

export function unmountComponentAtNode(node: Element): boolean {
  render(null, node);
  return true;
}
