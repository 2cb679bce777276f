#!/usr/bin/env python3
"""Fails when the modules of a crate import each other in a circle.

For every crate under crates/ it reads the non-test code of each module file under src/
(a module is a file: src/a.rs is `a`, src/a/b.rs is `a::b`; the crate root, lib.rs or
main.rs, is the assembly point and is left out) and draws an edge A -> B for each path
that names B from A: `crate::b::...`, `super::...` and a child declared in A (`mod b;`
then `b::...` or `self::b::...`). `crate::x::y::Item` names the longest prefix that is a module; an item the
crate root re-exports (`pub use b::Item;` in lib.rs, so `crate::Item`) names the module it
comes from. A test module (`#[cfg(test)] mod tests { … }`) is skipped, and only it: code
after it counts. Then it reports every strongly connected component larger than one
module, and exits 1 if there is any.

  python3 scripts/module-cycles.py [ROOT]    (ROOT defaults to the repository)
  python3 scripts/module-cycles.py --self-test   (plants a cycle; must find it)
"""

import pathlib
import re
import sys
import tempfile

PATH = re.compile(r"\b(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)+)")
GROUP = re.compile(r"\buse\s+(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)*)::\{([^;]*)\};", re.S)
CHILD = re.compile(r"^\s*(?:pub(?:\([a-z]+\))?\s+)?mod\s+([a-z_][a-z0-9_]*)\s*;", re.M)
TESTS = re.compile(r"^#\[cfg\(test\)\]\s*\n(?:#\[path[^\]]*\]\s*\n)?\s*mod\s+tests\b", re.M)
COMMENT = re.compile(r"//[^\n]*")


def module_of(src: pathlib.Path, file: pathlib.Path):
    rel = file.relative_to(src).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "mod":
        parts.pop()
    if parts in (["lib"], ["main"]):
        return ()
    return tuple(parts)


def code_of(file: pathlib.Path) -> str:
    """The file's code without comments and without its inline test modules."""
    text = COMMENT.sub("", file.read_text(encoding="utf-8"))
    while True:
        cut = TESTS.search(text)
        if not cut:
            return text
        rest = text[cut.end():]
        brace = re.match(r"\s*(;|\{)", rest)
        if not brace or brace.group(1) == ";":
            text = text[: cut.start()] + rest[brace.end() if brace else 0:]
            continue
        depth, i = 0, brace.start(1)
        while i < len(rest):
            depth += {"{": 1, "}": -1}.get(rest[i], 0)
            i += 1
            if depth == 0:
                break
        text = text[: cut.start()] + rest[i:]


REEXPORT = re.compile(r"^\s*pub(?:\([a-z]+\))?\s+use\s+(?:self::)?([a-z_][a-z0-9_:]*)::(\{[^;]*\}|[A-Za-z_][A-Za-z0-9_]*(?:\s+as\s+[A-Za-z_][A-Za-z0-9_]*)?)\s*;", re.M)


def root_reexports(src: pathlib.Path):
    """Names the crate root re-exports (`pub use a::b::{X, Y as Z};`) -> the path they come from."""
    out = {}
    for root in ("lib.rs", "main.rs"):
        f = src / root
        if not f.exists():
            continue
        for m in REEXPORT.finditer(COMMENT.sub("", f.read_text(encoding="utf-8"))):
            base = tuple(m.group(1).split("::"))
            items = m.group(2).strip("{}").split(",")
            for item in items:
                item = item.strip()
                if not item:
                    continue
                parts = re.split(r"\s+as\s+", item)
                name = parts[-1].strip()
                out[name] = base + tuple(parts[0].strip().split("::"))
    return out


def names_in_group(prefix, body):
    """The paths a `use prefix::{...}` group names (one level of nesting is enough here)."""
    out = []
    depth, item = 0, ""
    for ch in body + ",":
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            item = item.strip()
            if item:
                head = re.match(r"([A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*)", item)
                if head:
                    out.append(prefix + tuple(head.group(1).split("::")))
            item = ""
        else:
            item += ch
    return out


def crate_edges(src: pathlib.Path):
    files = [f for f in src.rglob("*.rs") if f.name != "tests.rs" and not f.name.endswith("_tests.rs")]
    modules = {module_of(src, f): f for f in files}
    edges = {m: set() for m in modules if m}
    reexported = root_reexports(src)

    def resolve(path):
        for n in range(len(path), 0, -1):
            if path[:n] in modules:
                return path[:n]
        if path and path[0] in reexported and reexported[path[0]] != path:
            return resolve(reexported[path[0]] + path[1:])
        return ()

    for m, f in modules.items():
        if not m:
            continue
        code = code_of(f)
        paths = []
        for g in GROUP.finditer(code):
            base = (g.group(1),) + tuple(p for p in g.group(2).split("::") if p)
            paths += names_in_group(base, g.group(3))
        paths += [(p.group(1),) + tuple(x for x in p.group(2).split("::") if x) for p in PATH.finditer(code)]
        children = set(CHILD.findall(code))
        for child in children:
            for _ in re.finditer(r"(?<![:\w])" + child + r"::", code):
                paths.append(("self", child))
        for p in paths:
            if p[0] == "crate":
                target = p[1:]
            elif p[0] == "super":
                up, rest = m[:-1], p[1:]
                while rest and rest[0] == "super":
                    up, rest = up[:-1], rest[1:]
                target = up + rest
            else:  # a child of m
                target = m + p[1:]
            to = resolve(target)
            if to and to != m:
                edges[m].add(to)
    return edges


def components(edges):
    """Tarjan's strongly connected components."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(comp)

    sys.setrecursionlimit(10_000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return [sorted(c) for c in out if len(c) > 1]


def check(root: pathlib.Path) -> int:
    cycles = 0
    crates = sorted(p for p in (root / "crates").iterdir() if (p / "src").is_dir())
    for crate in crates:
        for comp in components(crate_edges(crate / "src")):
            cycles += 1
            names = ", ".join("::".join(m) for m in comp)
            print(f"module cycle in {crate.name}: {{{names}}}")
    if cycles:
        print(f"{cycles} module cycle(s) found; a module may only import modules that do not import it back")
        return 1
    print(f"no module cycles in {len(crates)} crates")
    return 0


# The self-test's cases, applied in order to one planted crate: the files each case
# (re)writes, the result `check` must give, and what it means when it does not.
ROUTE = "mod live;\npub fn f() { live::g() }\n"
SELF_TEST_CASES = [
    ({"b.rs": "pub struct B;\n#[cfg(test)]\nmod tests {\n    use crate::a::A;\n}\n"}, 0,
     "a test module's import or a parent-to-child edge counted as a cycle"),
    ({"b.rs": "use crate::{route, a::{A}};\npub struct B;\n"}, 1, "the planted cycle a -> b -> a was not found"),
    ({"b.rs": "pub struct B;\n", "route/live.rs": "pub fn g() { super::f() }\n"}, 1,
     "the planted cycle route -> route::live -> route was not found"),
    ({"route.rs": "mod live;\nuse self::live::g;\npub fn f() { g() }\n"}, 1,
     "the planted cycle route -> route::live (as self::live) -> route was not found"),
    ({"route.rs": ROUTE, "route/live.rs": "pub fn g() {}\n", "b.rs": "use crate::A as Other;\npub struct B;\n"}, 1,
     "the cycle a -> b -> a through the root's `pub use a::A` was not found"),
    ({"b.rs": "pub struct B;\n#[cfg(test)]\nmod tests {\n    fn t() { let _ = 1; }\n}\nuse crate::a::A;\n"}, 1,
     "an import after the test module was not counted"),
]


def self_test() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        src = pathlib.Path(tmp, "crates", "planted", "src")
        (src / "route").mkdir(parents=True)
        (src / "lib.rs").write_text("mod a;\nmod b;\nmod route;\npub use a::A;\n")
        (src / "a.rs").write_text("use crate::b::B;\npub struct A;\n")
        (src / "route.rs").write_text(ROUTE)
        (src / "route" / "live.rs").write_text("pub fn g() {}\n")
        for files, want, problem in SELF_TEST_CASES:
            for name, text in files.items():
                (src / name).write_text(text)
            if check(pathlib.Path(tmp)) != want:
                print(f"self-test: {problem}")
                return 1
    print("self-test: planted cycles found, clean tree passes")
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    sys.exit(check(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent.parent)))
