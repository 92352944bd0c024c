// The one part of jsdom a test uses (test-dom.ts). Its own types (@types/jsdom) would load the
// DOM's types into every workspace's type check, where Node's Blob types then clash.
declare module "jsdom" {
  export class JSDOM {
    constructor(html?: string, options?: { url?: string });
    readonly window: Window & typeof globalThis;
  }
}
