#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The modules of tools/mlf form a tree: libraries below subcommands.

Parses every module of tools/mlflib (without importing it) and fails if a
library module (mlflib.LIBRARIES) imports a subcommand module or defines
register(), if a subcommand module imports another subcommand or lacks
register(), if a module imports one of the package inside a function (a
lazy import, the old way around a cycle), if main.py imports anything but
libraries, or if the imports have a cycle. The checks are also run on
made-up module sets, so that a checker that passes everything fails here.
Run standalone: python3 tests/tools/test_layers.py
"""
import ast
import os
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PACKAGE = os.path.join(ROOT, "tools", "mlflib")


def package_imports(tree, name):
    """[(module imported, line, at top level)] of the package's modules
    that @tree (module @name) imports: from . import x, from .x import y,
    from mlflib import x, import mlflib.x."""
    found = []
    top = set(id(n) for n in tree.body)
    for node in ast.walk(tree):
        at_top = id(node) in top
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module is None:
                found += [(a.name, node.lineno, at_top) for a in node.names]
            elif node.level == 1:
                found.append((node.module.split(".")[0], node.lineno, at_top))
            elif node.level == 0 and node.module == "mlflib":
                found += [(a.name, node.lineno, at_top) for a in node.names]
            elif node.level == 0 and (node.module or "").startswith("mlflib."):
                found.append((node.module.split(".")[1], node.lineno, at_top))
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("mlflib."):
                    found.append((a.name.split(".")[1], node.lineno, at_top))
    return found


def defines_register(tree):
    return any(isinstance(n, ast.FunctionDef) and n.name == "register" for n in tree.body)


def read_package(path=PACKAGE):
    """({module: ast}, LIBRARIES) of the package at @path."""
    modules = {}
    for fname in sorted(os.listdir(path)):
        if fname.endswith(".py"):
            with open(os.path.join(path, fname), encoding="utf-8") as f:
                modules[fname[:-3]] = ast.parse(f.read(), fname)
    libraries = ()
    for node in modules.get("__init__", ast.Module(body=[])).body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "LIBRARIES" for t in node.targets):
            libraries = tuple(ast.literal_eval(node.value))
    return modules, libraries


def problems(modules, libraries):
    """Every breach of the layering, one line each (empty: none)."""
    out = []
    libs = set(libraries)
    subcommands = set(modules) - libs - {"main", "__init__"}
    for lib in sorted(libs):
        if lib not in modules:
            out.append("LIBRARIES names %s, which is not a module" % lib)
    graph = {}
    for name, tree in sorted(modules.items()):
        deps = []
        for dep, line, at_top in package_imports(tree, name):
            where = "%s.py:%d" % (name, line)
            if dep not in modules:
                continue  # not a module of the package (a name it exports)
            if not at_top:
                out.append("%s: imports %s inside a function (a lazy import)" % (where, dep))
            if name in libs and dep not in libs:
                out.append("%s: library %s imports subcommand %s" % (where, name, dep))
            if name in subcommands and dep not in libs:
                out.append("%s: subcommand %s imports subcommand %s" % (where, name, dep))
            if name == "main" and dep not in libs:
                out.append("%s: main imports %s, which is not a library" % (where, dep))
            deps.append(dep)
        graph[name] = deps
        if name in libs and defines_register(tree):
            out.append("%s.py: library %s defines register()" % (name, name))
        if name in subcommands and not defines_register(tree):
            out.append("%s.py: %s is neither a library (mlflib.LIBRARIES) nor a "
                       "subcommand (no register())" % (name, name))
    cycle = find_cycle(graph)
    if cycle:
        out.append("import cycle: " + " -> ".join(cycle))
    return out


def find_cycle(graph):
    """A cycle of @graph ({node: [nodes]}) as a list of nodes, or None."""
    state, stack = {}, []

    def visit(n):
        state[n] = "open"
        stack.append(n)
        for m in graph.get(n, []):
            if state.get(m) == "open":
                return stack[stack.index(m):] + [m]
            if m not in state:
                found = visit(m)
                if found:
                    return found
        state[n] = "done"
        stack.pop()
        return None

    for n in sorted(graph):
        if n not in state:
            found = visit(n)
            if found:
                return found
    return None


def parse(**sources):
    return {name: ast.parse(text) for name, text in sources.items()}


class Package(unittest.TestCase):
    def test_the_package_is_layered(self):
        modules, libraries = read_package()
        self.assertTrue(libraries, "mlflib.LIBRARIES is missing")
        self.assertIn("fuzz", modules)
        self.assertEqual(problems(modules, libraries), [])

    def test_libraries_import_only_libraries(self):
        modules, libraries = read_package()
        for name in libraries:
            for dep, line, _ in package_imports(modules[name], name):
                if dep in modules:
                    self.assertIn(dep, libraries, "%s.py:%d imports %s" % (name, line, dep))

    def test_the_targets_table_module_stands_alone(self):
        # the build runs tools/mlflib/targets.py as a script: no relative import
        modules, _ = read_package()
        self.assertEqual(package_imports(modules["targets"], "targets"), [])


class Checker(unittest.TestCase):
    """The checker itself on made-up packages: each breach is found."""

    def test_clean(self):
        mods = parse(common="import os\n", build="from . import common\ndef register(s): pass\n",
                     main="from . import common\n")
        self.assertEqual(problems(mods, ("common",)), [])

    def test_library_imports_subcommand(self):
        mods = parse(common="from . import fuzz\n",
                     fuzz="from . import common\ndef register(s): pass\n")
        found = problems(mods, ("common",))
        self.assertTrue(any("library common imports subcommand fuzz" in p for p in found), found)
        self.assertTrue(any("import cycle" in p for p in found), found)

    def test_subcommand_imports_subcommand(self):
        mods = parse(common="", replay="def register(s): pass\n",
                     minimize="from .replay import guess\ndef register(s): pass\n")
        self.assertTrue(any("subcommand minimize imports subcommand replay" in p
                            for p in problems(mods, ("common",))))

    def test_lazy_import(self):
        mods = parse(common="", shrink="def f():\n    from . import common\n")
        self.assertTrue(any("inside a function" in p for p in problems(mods, ("common", "shrink"))))

    def test_cycle_among_libraries(self):
        mods = parse(a="from . import b\n", b="from mlflib import c\n", c="import mlflib.a\n")
        found = problems(mods, ("a", "b", "c"))
        self.assertTrue(any(p.startswith("import cycle: ") for p in found), found)

    def test_register_in_a_library_and_a_module_of_neither_layer(self):
        mods = parse(common="def register(s): pass\n", helper="x = 1\n")
        found = problems(mods, ("common",))
        self.assertTrue(any("library common defines register()" in p for p in found), found)
        self.assertTrue(any("helper is neither a library" in p for p in found), found)


if __name__ == "__main__":
    unittest.main()
