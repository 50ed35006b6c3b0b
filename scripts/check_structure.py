#!/usr/bin/env python3
"""Checks the shape of src/ that docs/architecture.md promises: no import
circle between files or between folders, and no source file over
MAX_LINES lines outside its tests.

A file imports another when it names it by path: `super::x`, `crate::a::b`,
`self::x`, or a group `crate::a::{b, c}`. Folders are compared by the
folder each file lives in. Tests (`#[cfg(test)] mod tests { ... }` and
files named tests.rs) may import anything. Prints every circle and every
long file found; exits 1 if any. CI runs it (.ci/run):
python3 scripts/check_structure.py
"""
import os
import re
import sys

ROOT = "src"
MAX_LINES = 800


def module_path(path):
    """src/player/search/search.rs -> ['player', 'search', 'search']"""
    rel = os.path.relpath(path, ROOT)[:-3].split(os.sep)
    if rel[-1] in ("mod", "lib", "main"):
        rel = rel[:-1]
    return rel


def files():
    for dirpath, _, names in os.walk(ROOT):
        for name in names:
            if name.endswith(".rs"):
                yield os.path.join(dirpath, name)


def strip_tests(text):
    """Drops `#[cfg(test)] mod tests { ... }` blocks: tests may import
    anything from the module they test."""
    out = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() == "#[cfg(test)]" and i + 1 < len(lines) and re.match(
            r"\s*mod \w+ \{", lines[i + 1]
        ):
            depth = 0
            i += 1
            while i < len(lines):
                depth += lines[i].count("{") - lines[i].count("}")
                i += 1
                if depth == 0:
                    break
            continue
        out.append(lines[i])
        i += 1
    return "\n".join(out)


def resolve(own, ref, modules):
    """The longest known module that the path `ref` names, seen from `own`."""
    parts = ref.split("::")
    if parts[0] == "crate":
        base = []
        parts = parts[1:]
    elif parts[0] in ("super", "self"):
        base = list(own)
        is_mod_file = tuple(own) in modules and modules[tuple(own)].endswith("mod.rs")
        while parts and parts[0] in ("super", "self"):
            if parts[0] == "super":
                base = base[:-1]
            parts = parts[1:]
    else:
        return None
    candidate = base + parts
    while candidate:
        if tuple(candidate) in modules:
            return tuple(candidate)
        candidate = candidate[:-1]
    return None


def main():
    modules = {tuple(module_path(p)): p for p in files()}
    edges = {m: set() for m in modules}
    pattern = re.compile(r"\b((?:crate|super|self)(?:::\w+)+)")
    for mod, path in modules.items():
        text = strip_tests(open(path, encoding="utf-8").read())
        # Child modules declared here are not imports.
        for ref in pattern.findall(text):
            target = resolve(mod, ref, modules)
            if target is None or target == mod:
                continue
            # A folder's mod.rs declaring or re-exporting its own children
            # is its face, not an import.
            if target[: len(mod)] == mod:
                continue
            edges[mod].add(target)
        # `use` groups like crate::player::{a, b}
        for base, group in re.findall(r"\b((?:crate|super)(?:::\w+)*)::\{([^}]*)\}", text):
            for name in re.findall(r"\b(\w+)\b", group):
                target = resolve(mod, base + "::" + name, modules)
                if target and target != mod and target[: len(mod)] != mod:
                    edges[mod].add(target)
    found = report(edges, "file")
    folder_edges = {}
    for mod, targets in edges.items():
        src = folder(mod, modules)
        for t in targets:
            dst = folder(t, modules)
            if src != dst and not is_ancestor(dst, src) and not is_ancestor(src, dst):
                folder_edges.setdefault(src, set()).add(dst)
                folder_edges.setdefault(dst, set())
    found += report(folder_edges, "folder")
    for mod, path in sorted(modules.items()):
        if os.path.basename(path) == "tests.rs":
            continue
        lines = strip_tests(open(path, encoding="utf-8").read()).count("\n")
        if lines > MAX_LINES:
            print("%s: %d lines outside its tests (at most %d)" % (path, lines, MAX_LINES))
            found += 1
    if found:
        sys.exit(1)
    print("no import circle among %d files, none over %d lines" % (len(modules), MAX_LINES))


def is_ancestor(a, b):
    return len(a) < len(b) and b[: len(a)] == a


def folder(mod, modules):
    path = modules[mod]
    return tuple(module_path(os.path.join(os.path.dirname(path), "mod.rs")))


def report(edges, kind):
    """Prints each strongly connected group of more than one node."""
    index = {}
    low = {}
    stack = []
    on = set()
    groups = []
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
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    sys.setrecursionlimit(10000)
    for v in list(edges):
        if v not in index:
            visit(v)
    for g in groups:
        print("%s circle: %s" % (kind, " <-> ".join("/".join(m) or "crate" for m in g)))
    return len(groups)


if __name__ == "__main__":
    main()
