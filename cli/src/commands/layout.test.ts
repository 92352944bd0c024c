/**
 * The commands' rooms (docs/decisions/0043): a folder per group, a file per command. A command
 * added to a group's index, or two commands in one file, fails here.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildProgram } from "../program.js";

const here = import.meta.dirname;
const groups = readdirSync(here).filter((f) => statSync(path.join(here, f)).isDirectory());
const source = (...parts: string[]) => readFileSync(path.join(here, ...parts), "utf8");
const commandsMade = (text: string) => text.match(/new Command\(/g)?.length ?? 0;

describe("cli/src/commands", () => {
  it("holds only group folders (and tests of the whole CLI)", () => {
    const loose = readdirSync(here).filter((f) => !groups.includes(f) && !f.endsWith(".test.ts"));
    expect(loose).toEqual([]);
  });

  it("has a folder for every group of the program, and nothing else", () => {
    const program = buildProgram();
    const names = program.commands.map((c) => c.name()).filter((n) => n !== "help");
    expect([...groups].sort()).toEqual([...names].sort());
  });

  it("makes each group in its index.ts, which only adds the commands of the files beside it", () => {
    for (const group of groups) {
      const index = source(group, "index.ts");
      expect(commandsMade(index), group).toBe(1);
      expect(index, group).not.toMatch(/\.command\(|\.action\(/);
    }
  });

  it("defines each command in its own file", () => {
    for (const group of groups) {
      for (const file of readdirSync(path.join(here, group))) {
        if (file === "index.ts" || file.endsWith(".test.ts")) continue;
        const text = source(group, file);
        expect(commandsMade(text), `${group}/${file}`).toBeLessThanOrEqual(1);
        expect(text, `${group}/${file}`).not.toMatch(/\.command\(/);
      }
    }
  });
});
