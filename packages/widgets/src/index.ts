export * from "./client.js";
export * from "./event-list.js";
export * from "./format.js";
export * from "./helpers.js";
export * from "./hooks.js";
export { type Avatar, racerAvatar } from "./internal/avatar.js";
export type { LinkRenderProps, RenderLink, WidgetBaseProps } from "./internal/common.js";
export { newTabLink } from "./internal/common.js";
export type { PagingProps } from "./internal/pagination.js";
export {
  AvatarPortrait,
  type AvatarRacer,
  PlaceholderPortrait,
  Portrait,
  type PortraitProps,
} from "./internal/portrait.js";
export * from "./league-rankings.js";
export * from "./live-scores.js";
export * from "./player-rankings.js";
export * from "./racer-table.js";
export * from "./requirement-checklist.js";
export * from "./team-grid.js";
export * from "./types.js";
