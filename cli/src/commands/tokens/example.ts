export const example = (...lines: string[]) =>
  `\nExample:\n${lines.map((l) => `  $ game-admin tokens ${l}`).join("\n")}`;
