/** Test support shared with the other packages' tests (`@game/core/testing`). */
export * from "./reference-settlement.js";
