#!/usr/bin/env python3
"""The module import graph of a Rust src/ tree, for reviews of the layout (issue 15).

Reads every `crate::…`, `super::…` and `self::…` path outside `#[cfg(test)]`, resolves each to
the deepest module file that exists, and folds modules to DEPTH path segments (a child reading
its parent's items is not an edge). Prints the number of modules, edges and cycles (strongly
connected components of more than one module), each cycle, and with -e every edge.
tests/integration/architecture.rs is what enforces the order; this only shows it.

    python3 tools/import_graph.py src 2        # two levels: render::views, lint::rules, …
    python3 tools/import_graph.py src 1 -e     # top-level modules, every edge
"""

import collections
import os
import re
import sys


def module_files(root):
    """Module path (`render::views`, `` for lib.rs) → file."""
    mods = {}
    for folder, _, files in os.walk(root):
        for name in files:
            if not name.endswith(".rs") or name == "main.rs":
                continue
            path = os.path.join(folder, name)
            parts = os.path.relpath(path, root)[:-3].split("/")
            if parts[-1] == "mod":
                parts = parts[:-1]
            if parts == ["lib"]:
                parts = []
            mods["::".join(parts)] = path
    return mods


def code_of(path):
    """The file's code without comments and without its test module."""
    text = "\n".join(line.split("//")[0] for line in open(path, encoding="utf-8"))
    cut = text.find("#[cfg(test)]")
    return text if cut < 0 else text[:cut]


def edges_between_files(mods):
    edges = collections.defaultdict(set)
    for module, path in mods.items():
        here = module.split("::") if module else []
        for anchor, rest in re.findall(r"\b(crate|super|self)((?:::[A-Za-z_]+)+)", code_of(path)):
            segments = rest.strip(":").split("::")
            if anchor == "crate":
                base = []
            elif anchor == "self":
                base = here
            else:
                base = here[:-1]
                while segments and segments[0] == "super":
                    base, segments = base[:-1], segments[1:]
            full = base + segments
            target = next(
                ("::".join(full[:i]) for i in range(len(full), 0, -1) if "::".join(full[:i]) in mods),
                None,
            )
            if target is not None and target != module:
                edges[module].add(target)
    return edges


def fold(edges, depth):
    cut = lambda m: "::".join(m.split("::")[:depth]) or "lib"
    graph = collections.defaultdict(set)
    for a, targets in edges.items():
        for b in targets:
            ca, cb = cut(a), cut(b)
            if ca != cb and not ca.startswith(cb + "::"):
                graph[ca].add(cb)
    return graph, cut


def cycles(graph):
    """Tarjan's strongly connected components with more than one module."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in list(graph):
        if v not in index:
            visit(v)
    return found


def main():
    args = [a for a in sys.argv[1:] if a != "-e"]
    root = args[0] if args else "src"
    depth = int(args[1]) if len(args) > 1 else 2
    mods = module_files(root)
    graph, cut = fold(edges_between_files(mods), depth)
    if "-e" in sys.argv:
        for a in sorted(graph):
            for b in sorted(graph[a]):
                print(a, "->", b)
    found = cycles(graph)
    print("modules", len(set(map(cut, mods))), "edges", sum(map(len, graph.values())), "cycles", len(found))
    for component in found:
        print("  cycle:", " <-> ".join(component))


if __name__ == "__main__":
    main()
