#!/usr/bin/env python3
"""Checks that no crate of the workspace has an import circle among its modules.

A crate should read bottom-up (types → board → moves → position → evaluation → search): each
module uses only modules below it, so it can be read, tested and changed knowing only those.
A circle (position uses eval, eval uses position) makes every module in it depend on all the
others. This script reads each crate's sources (no cargo, no compiler) and finds its circles.

The graph, per crate (each package's src/lib.rs or src/main.rs and the module tree under it):
- A node is a top-level module (`mod search;` in the crate root). A nested module belongs to its
  top-level module: `crate::search::ordering::Foo` is an edge to `search`, and a file under
  src/search/ is part of `search`. Edges inside one top-level module are not counted.
- Edges come from `use crate::…` trees, `crate::module::…` paths in code, `super::…` paths that
  leave the top-level module, and `crate::Name` where the crate root re-exports `Name` from a
  module (`pub use position::Position`). The crate root's own items (functions, types) form the
  node `(root)`: its re-exports and `mod` declarations are the crate's façade, not edges, but code
  in its items that names a module or a re-exported name is an edge from `(root)`.
- Test code is left out: an item under `#[cfg(test)]` (an inline `mod tests { … }`, a test-only
  `use` or helper) and a module declared under `#[cfg(test)]` (a tests.rs file) with everything
  below it. Tests may use anything in their crate, so they would add circles that say nothing
  about the crate's structure. Integration tests (tests/) are separate crates and not read.
- Macro paths (`$crate::`) and visibilities (`pub(in crate::x)`) are not edges; method calls
  are not read at all (an `impl` block may sit in any module: what it names through paths counts).
- A module file is found as cargo finds it: `name.rs` or `name/mod.rs` beside its parent, or the
  file a `#[path = "…"]` attribute names. A `mod x;` without a file is an error, never a skip.

Each circle is printed with its modules and, per edge, one line that makes it. Circles listed in
KNOWN_CIRCLES (with a reason) are printed as notes instead, and an entry there that no longer
matches a circle is an error, so the list can only shrink.

A crate's root doc comment may state its module order, a paragraph that starts with
"Modules, bottom-up:" and lists every top-level module with `→` between them, e.g.

    //! Modules, bottom-up: types → board → moves → position → eval → search. Each uses only
    //! modules before it (scripts/check-module-circles.py).

The list ends at the first full stop and may wrap over several `//!` lines. The check then also
holds each edge to it: a module uses only modules listed before it, and every module is listed.
Crates under crates/ must state it; elsewhere it is checked where present.

Run from anywhere in the workspace:

    scripts/check-module-circles.py              check every crate (after the self-test)
    scripts/check-module-circles.py --graph      also print each crate's modules and edges
    scripts/check-module-circles.py --self-test  only the self-test on scripts/tests/module-circles
"""

import re
import sys
from pathlib import Path

WORKSPACE = Path(__file__).resolve().parent.parent
FIXTURE = WORKSPACE / "scripts" / "tests" / "module-circles"
ROOT = "(root)"

# Circles left on purpose, each with its reason; any other circle fails, and so does an entry
# here that no longer matches a circle (so the list only shrinks). The protocol crates are being
# reshaped by issue 65's items 1 and 2 (one protocol shape, notation once) in the very files these
# circles run through; breaking them there avoids two rewrites of the same lines.
KNOWN_CIRCLES = {
}
ORDER_START = "Modules, bottom-up:"

# Comments and literals are blanked before anything is read, so that `crate::x` in a string or a
# comment is no edge. A char literal is one character between quotes ('a', '\n', '\u{1F600}'),
# which a lifetime ('a) never is.
TOKENS = re.compile(
    r"""(?P<line_comment>//[^\n]*)
      | (?P<block_comment>/\*)
      | (?P<raw_string>b?r(?P<hashes>\#*)")
      | (?P<string>b?"(?:\\.|[^"\\])*")
      | (?P<char>b?'(?:\\u\{[0-9a-fA-F]+\}|\\.|[^\\'\n])')
    """,
    re.VERBOSE | re.DOTALL,
)


def blank(text: str) -> str:
    """The same text with comments and literals replaced by spaces; newlines kept for line numbers."""
    out = []
    position = 0
    while True:
        match = TOKENS.search(text, position)
        if not match:
            out.append(text[position:])
            return "".join(out)
        out.append(text[position : match.start()])
        if match.group("block_comment"):
            depth, end = 1, match.end()
            while depth and end < len(text):
                if text.startswith("/*", end):
                    depth, end = depth + 1, end + 2
                elif text.startswith("*/", end):
                    depth, end = depth - 1, end + 2
                else:
                    end += 1
        elif match.group("raw_string") is not None:
            closing = '"' + match.group("hashes")
            found = text.find(closing, match.end())
            end = len(text) if found < 0 else found + len(closing)
        else:
            end = match.end()
        out.append(re.sub(r"[^\n]", " ", text[match.start() : end]))
        position = end


def matching_brace(text: str, start: int) -> int:
    """The index just past the brace that closes the one at `start`."""
    depth = 0
    for index in range(start, len(text)):
        if text[index] == "{":
            depth += 1
        elif text[index] == "}":
            depth -= 1
            if depth == 0:
                return index + 1
    return len(text)


def item_end(text: str, start: int) -> int:
    """The end of the item starting at `start`: its `;` or the brace closing its body."""
    depth = 0
    for index in range(start, len(text)):
        char = text[index]
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif depth == 0 and char == ";":
            return index + 1
        elif depth == 0 and char == "{":
            return matching_brace(text, index)
    return len(text)


TEST_ATTRIBUTE = re.compile(r"#\[cfg\(\s*(?:test|all\(\s*test\b[^\]]*)\)\]")
ATTRIBUTE = re.compile(r"\s*#\[[^\]]*\]")
MOD_DECLARATION = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", re.MULTILINE)
INLINE_MOD = re.compile(r"\bmod\s+(\w+)\s*\{")


def strip_tests(code: str):
    """The code without `#[cfg(test)]` items, and the names of test-only `mod x;` declarations."""
    if re.match(r"\s*#!\[cfg\(test\)\]", code):
        return re.sub(r"[^\n]", " ", code), set()
    test_modules = set()
    while True:
        match = TEST_ATTRIBUTE.search(code)
        if not match:
            return code, test_modules
        start = match.end()
        while attribute := ATTRIBUTE.match(code, start):
            start = attribute.end()
        end = item_end(code, start)
        declaration = MOD_DECLARATION.match(code, start)
        if declaration and declaration.end() == end:
            test_modules.add(declaration.group(1))
        code = code[: match.start()] + re.sub(r"[^\n]", " ", code[match.start() : end]) + code[end:]


class File:
    """One source file of a crate: its module path (["search", "ordering"]) and blanked code."""

    def __init__(self, path: Path, module: list, code: str):
        self.path = path
        self.module = module
        self.code = code
        self.lines = path.read_text().splitlines()
        # Inline (non-test) modules: `super::` inside them is one level deeper.
        self.inline = [(m.group(1), m.end() - 1, matching_brace(code, m.end() - 1)) for m in INLINE_MOD.finditer(code)]

    def module_at(self, offset: int) -> list:
        return self.module + [name for name, start, end in self.inline if start < offset < end]

    def line_of(self, offset: int) -> int:
        return self.code.count("\n", 0, offset) + 1


PATH_ATTRIBUTE = re.compile(r'#\[path\s*=\s*"([^"]+)"\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;')


def module_files(root: Path, errors: list) -> list:
    """Every non-test file of the crate rooted at `root` (lib.rs or main.rs), depth first."""
    files = []
    pending = [(root, [])]
    while pending:
        path, module = pending.pop()
        text = path.read_text()
        code, test_modules = strip_tests(blank(text))
        files.append(File(path, module, code))
        folder = path.parent if path.name in ("lib.rs", "main.rs", "mod.rs") else path.parent / path.stem
        # `#[path = "…"] mod x;` (a file shared by two binaries): relative to the declaring file's folder.
        placed = {m.group(2): path.parent / m.group(1) for m in PATH_ATTRIBUTE.finditer(text)}
        for declaration in MOD_DECLARATION.finditer(code):
            name = declaration.group(1)
            if name in test_modules:
                continue
            candidates = [placed[name]] * 2 if name in placed else [folder / f"{name}.rs", folder / name / "mod.rs"]
            found = next((c for c in candidates if c.exists()), None)
            if found is None:
                errors.append(f"{path}: `mod {name};` has no file ({candidates[0]} or {candidates[1]})")
            else:
                pending.append((found, module + [name]))
    return sorted(files, key=lambda f: (f.module, str(f.path)))


USE = re.compile(r"(?<![\w$])(pub(?:\([^)]*\))?\s+)?use\s+([^;]*);")


def use_paths(tree: str) -> list:
    """The paths of a use tree: `crate::{a::B, c::{D, E as F}}` → [crate::a::B, crate::c::D, crate::c::E]."""
    tree = re.sub(r"\s+", "", re.sub(r"\s+as\s+\w+", "", tree))  # an alias names the same item
    paths = []

    def walk(prefix: list, text: str):
        brace = text.find("{")
        if brace < 0:
            segments = [s for s in text.split("::") if s]
            paths.append(prefix + segments)
            return
        head = [s for s in text[:brace].split("::") if s]
        inner = text[brace + 1 : text.rfind("}")]
        depth, start = 0, 0
        for index, char in enumerate(inner + ","):
            if char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
            elif char == "," and depth == 0:
                part = inner[start:index]
                if part:
                    walk(prefix + head, part)
                start = index + 1

    walk([], tree)
    return [[s for s in p if s != "self"] or ["self"] for p in paths]


class Crate:
    def __init__(self, name: str, root: Path):
        self.name = name
        self.root = root
        self.errors = []
        self.files = module_files(root, self.errors)
        self.modules = sorted({f.module[0] for f in self.files if f.module})
        self.exports = self.read_exports()
        self.edges = {}  # (from, to) → first (file, line, text) seen
        for file in self.files:
            self.read_edges(file)

    def read_exports(self) -> dict:
        """Names the crate root re-exports from its modules: `pub use position::{Position, START}`."""
        root = self.files[0]
        exports = {}
        for match in USE.finditer(root.code):
            if not match.group(1):
                continue
            for path in use_paths(match.group(2)):
                path = path[1:] if path[0] in ("crate", "self") else path
                if len(path) > 1 and path[0] in self.modules:
                    exports[path[-1]] = path[0]
        return exports

    def target(self, file: File, offset: int, path: list):
        """The top-level module (or ROOT) a path from `file` names, or None when it stays put or leaves the crate."""
        module = file.module_at(offset)
        if path[0] == "crate":
            rest = path[1:]
        elif path[0] in ("super", "self"):
            base = list(module)
            while path and path[0] in ("super", "self"):
                if path[0] == "super":
                    base = base[:-1]
                path = path[1:]
            rest = base + path
        elif not file.module and path[0] in self.modules:
            rest = path  # the crate root names its modules directly
        else:
            return None
        if not rest:
            return ROOT
        if rest[0] in self.modules:
            return rest[0]
        if rest[0] in self.exports:
            return self.exports[rest[0]]
        return ROOT if rest[0] != "*" else None

    def add(self, file: File, offset: int, source: str, target):
        if target is None or target == source:
            return
        line = file.line_of(offset)
        self.edges.setdefault((source, target), (file.path, line, file.lines[line - 1].strip()))

    def read_edges(self, file: File):
        source = file.module[0] if file.module else ROOT
        code = file.code
        uses = []
        for match in USE.finditer(code):
            uses.append((match.start(), match.end()))
            if not file.module and match.group(1):
                continue  # the root's re-exports: its façade
            for path in use_paths(match.group(2)):
                self.add(file, match.start(), source, self.target(file, match.start(), path))
        inside_use = lambda offset: any(start <= offset < end for start, end in uses)
        for match in re.finditer(r"(?<![\w$])((?:crate|super)\b(?:::\w+)*)", code):
            if inside_use(match.start()) or re.search(r"\bin\s*$", code[: match.start()]):
                continue
            path = match.group(1).split("::")
            if len(path) > 1 or path[0] == "super":
                self.add(file, match.start(), source, self.target(file, match.start(), path))
        if not file.module:
            self.read_root_items(file, inside_use)

    def read_root_items(self, file: File, inside_use):
        """Edges from the crate root's own items: module paths and re-exported names in their code."""
        for match in re.finditer(r"(?<![\w:$])(\w+)\b(\s*::)?", file.code):
            name, offset = match.group(1), match.start()
            if inside_use(offset) or re.search(r"\bmod\s+$", file.code[:offset]):
                continue
            if match.group(2) and name in self.modules:
                self.add(file, offset, ROOT, name)
            elif not match.group(2) and name in self.exports:
                self.add(file, offset, ROOT, self.exports[name])

    def circles(self) -> list:
        """Strongly connected components of more than one module (Tarjan), each sorted."""
        nodes = sorted({n for edge in self.edges for n in edge} | set(self.modules))
        successors = {n: sorted(t for s, t in self.edges if s == n) for n in nodes}
        index, low, stack, on_stack, found = {}, {}, [], set(), []

        def visit(node):
            index[node] = low[node] = len(index)
            stack.append(node)
            on_stack.add(node)
            for successor in successors[node]:
                if successor not in index:
                    visit(successor)
                    low[node] = min(low[node], low[successor])
                elif successor in on_stack:
                    low[node] = min(low[node], index[successor])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))

        sys.setrecursionlimit(10_000)
        for node in nodes:
            if node not in index:
                visit(node)
        return sorted(found)

    def stated_order(self):
        """The module order the root's doc comment states, or None."""
        docs = [line.strip()[3:].strip() for line in self.root.read_text().splitlines() if line.strip().startswith("//!")]
        for number, line in enumerate(docs):
            if line.startswith(ORDER_START):
                paragraph = [line[len(ORDER_START) :]]
                for more in docs[number + 1 :]:
                    if not more:
                        break
                    paragraph.append(more)
                text = " ".join(paragraph).split(".")[0]  # a sentence may follow the list
                return [name.strip().strip("`") for name in text.split("→")]
        return None

    def order_problems(self, required: bool) -> list:
        order = self.stated_order()
        if order is None:
            return [f"{self.root} states no module order ('//! {ORDER_START} a → b → …')"] if required else []
        problems = []
        missing = [m for m in self.modules if m not in order]
        unknown = [m for m in order if m not in self.modules]
        if missing:
            problems.append(f"{self.root}: the stated module order lacks {', '.join(missing)}")
        if unknown:
            problems.append(f"{self.root}: the stated module order names {', '.join(unknown)}, not modules of the crate")
        rank = {m: i for i, m in enumerate(order)}
        for (source, target), (path, line, text) in sorted(self.edges.items()):
            if source in rank and target in rank and rank[target] > rank[source]:
                problems.append(
                    f"{self.root}: {source} uses {target}, stated above it ({relative(path)}:{line}: {text})"
                )
        return problems

    def report(self, known: dict) -> list:
        """The circles as problem lines, and the known ones (from `known`) as notes on stdout."""
        lines = []
        for circle in self.circles():
            reason = known.get((self.name, tuple(circle)))
            if reason:
                print(f"module circles: known circle in {self.name}: {', '.join(circle)} (left for {reason})")
                continue
            lines.append(f"{self.name}: circle of {len(circle)} modules: {', '.join(circle)}")
            members = set(circle)
            for (source, target), (path, line, text) in sorted(self.edges.items()):
                if source in members and target in members:
                    lines.append(f"    {source} → {target}    {relative(path)}:{line}: {text}")
        return lines


def relative(path: Path) -> str:
    try:
        return str(path.relative_to(WORKSPACE))
    except ValueError:
        return str(path)


def crates(workspace: Path) -> list:
    """(name, root file, order required) of every crate: packages' lib.rs and main.rs."""
    found = []
    for manifest in sorted(workspace.glob("**/Cargo.toml")):
        folder = manifest.parent
        if any(part in ("target", "fuzz", "node_modules", "scripts") or part.startswith(".") for part in folder.relative_to(workspace).parts):
            continue
        for root in ("lib.rs", "main.rs"):
            if (folder / "src" / root).exists():
                name = str(folder.relative_to(workspace)) if folder != workspace else "the root package"
                if root == "main.rs" and (folder / "src" / "lib.rs").exists():
                    name += " (main.rs)"
                parts = folder.relative_to(workspace).parts
                required = root == "lib.rs" and len(parts) > 1 and parts[0] == "crates"
                found.append((name, folder / "src" / root, required))
    return found


def check(workspace: Path, show_graph: bool = False, known: dict = None):
    """(crate count, problem lines) for every crate under `workspace`."""
    known = known or {}
    problems = []
    listed = crates(workspace)
    found = set()
    for name, root, required in listed:
        crate = Crate(name, root)
        found.update((name, tuple(circle)) for circle in crate.circles())
        problems.extend(crate.errors)
        problems.extend(crate.report(known))
        problems.extend(crate.order_problems(required))
        if show_graph:
            print(f"{name}: {', '.join(crate.modules)}")
            for (source, target), (path, line, text) in sorted(crate.edges.items()):
                print(f"    {source} → {target}    {relative(path)}:{line}: {text}")
    for name, circle in sorted(set(known) - found):
        problems.append(f"{name}: {', '.join(circle)} is no longer a circle: remove it from KNOWN_CIRCLES")
    return len(listed), problems


EXPECTED_FIXTURE = [
    # `use crate::{…}`, `super::` out of a nested module and a re-exported name close the circle.
    "circle of 3 modules: board, position, search",
    "board → position",
    "board → search",
    "position → board",
    "search → position",
    # The root's own function names `cells::`; cells uses it back through `crate::cell_count`.
    "circle of 2 modules: (root), cells",
    "(root) → cells",
    "cells → (root)",
    # helper.rs is used only by tests (an inline `mod tests`, a `#[cfg(test)]` use, tests.rs).
    "stated module order lacks far, search",
    "position uses board, stated above it",
]


def graph_lines(workspace: Path) -> list:
    """Every edge of every crate under `workspace`, one line each."""
    return [f"{source} → {target}" for name, root, _ in crates(workspace) for source, target in Crate(name, root).edges]


def self_test() -> list:
    """Problems with the check itself: the fixture must give exactly the expected findings."""
    count, problems = check(FIXTURE)
    text = "\n".join(problems)
    failures = [f"self-test: expected `{e}` in the findings" for e in EXPECTED_FIXTURE if e not in text]
    if count != 1:
        failures.append(f"self-test: expected one crate in {FIXTURE}, found {count}")
    if "→ helper" in text or "tests.rs" in text:
        failures.append("self-test: test code was counted")
    if "has no file" in text or "far →" not in "\n".join(graph_lines(FIXTURE)):
        failures.append("self-test: the module under `#[path]` was not read")
    if len([p for p in problems if "circle of" in p]) != 2:
        failures.append("self-test: expected exactly two circles")
    if failures:
        failures.append("self-test findings were:\n" + text)
    return failures


def main() -> int:
    failures = self_test()
    if "--self-test" in sys.argv:
        for failure in failures:
            print(f"module circles: {failure}", file=sys.stderr)
        return 1 if failures else 0
    count, problems = check(WORKSPACE, "--graph" in sys.argv, KNOWN_CIRCLES)
    for problem in failures + problems:
        print(f"module circles: {problem}", file=sys.stderr)
    if failures or problems:
        return 1
    known = f" but the {len(KNOWN_CIRCLES)} known above" if KNOWN_CIRCLES else ""
    print(f"module circles: {count} crates, no import circle{known}; stated module orders kept (self-test passed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
