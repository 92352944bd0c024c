/**
 * A DOM for rendering widgets in a Node test: jsdom's window as the globals React reads, set
 * before React DOM loads (import this first). Not vitest's jsdom environment, whose `URL`
 * replaces Node's and breaks the database package's file paths.
 */
import { JSDOM } from "jsdom";

const { window } = new JSDOM("<!doctype html><html><body></body></html>", {
  url: "https://partner.example/",
});
Object.assign(globalThis, {
  window,
  document: window.document,
  location: window.location,
  HTMLElement: window.HTMLElement,
  IS_REACT_ACT_ENVIRONMENT: true,
});
// Node 21 and later have a navigator of their own.
if (typeof navigator === "undefined") {
  Object.defineProperty(globalThis, "navigator", { value: window.navigator, configurable: true });
}
