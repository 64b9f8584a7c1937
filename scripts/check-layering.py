#!/usr/bin/env python3
"""Checks that LiteVision's module dependencies point down.

Every module of the package has a layer, in the one layer table of the repository: the comment at the top of
Package.swift. A source module may
depend on, and import, only modules of strictly lower layers: never one of its own layer ("sideways") nor a
higher one. Test targets and test-support targets (those under Tests/) are above everything and may use any
module of the package, but a test-support target must not use a test target. Every import of a package
module must also be declared as a dependency in Package.swift.

The targets and their declared dependencies come from `swift package dump-package` (it only reads the
manifest); the imports come from every Swift file of every target.

    scripts/check-layering.py [--root DIR]

Exit status: 0 when everything points down, 1 with one line per violation, 2 when the manifest cannot be read.
"""

import argparse
import json
import os
import re
import subprocess
import sys

# Module name -> layer, read from the one layer table of the repository: the comment at the top of Package.swift
# (lines `//   N  Module …` and their continuation lines, up to `import PackageDescription`). Every source
# module must appear there, by its exact name, in one layer.
HEADER_LAYER = re.compile(r"^//\s{2,}(\d)\s{2,}(.*)$")
HEADER_CONTINUATION = re.compile(r"^//\s{4,}(\S.*)$")


def header_layers(root, module_names):
    """{module: layer} for each of `module_names` named in Package.swift's layer table, and the problems found
    (a module named in two layers)."""
    text_by_layer = {}
    layer = None
    with open(os.path.join(root, "Package.swift"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("import PackageDescription"):
                break
            m = HEADER_LAYER.match(line.rstrip("\n"))
            if m:
                layer = int(m.group(1))
                text_by_layer.setdefault(layer, []).append(m.group(2))
                continue
            m = HEADER_CONTINUATION.match(line.rstrip("\n"))
            if m and layer is not None:
                text_by_layer[layer].append(m.group(1))
            elif not line.startswith("//"):
                layer = None
    layers, problems = {}, []
    for name in module_names:
        found = sorted(n for n, texts in text_by_layer.items()
                       if any(re.search(rf"(?<![\w`-]){re.escape(name)}(?![\w-])", t) for t in texts))
        if len(found) > 1:
            problems.append(f"Package.swift: the layer table names {name} in layers {found}: keep it in one")
        if found:
            layers[name] = found[0]
    return layers, problems

# `import X`, with any attributes (@testable, @_exported, @_spi(...), @preconcurrency, ...), access level
# (public, package, internal, ...) and import kind (`import struct X.Y`); group 1 is the module.
IMPORT = re.compile(
    r"^\s*(?:@[A-Za-z_]\w*(?:\([^)]*\))?\s+|(?:public|package|internal|fileprivate|private|open)\s+)*"
    r"import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_]\w*)"
)
STRING_START = re.compile(r'(#*)("""|")')


def code_only(text):
    """The text with comments and string literals blanked out, newlines kept, so that `import` inside a
    comment or a string (say, an embedded Python script) is not taken for a Swift import."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if text.startswith("/*", i):  # Swift block comments nest
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    if text[i] == "\n":
                        out.append("\n")
                    i += 1
            continue
        m = STRING_START.match(text, i)
        if m:
            hashes, quote = m.group(1), m.group(2)
            close, escape = quote + hashes, "\\" + hashes
            i = m.end()
            while i < n:
                if text.startswith(escape, i):
                    if i + len(escape) < n and text[i + len(escape)] == "\n":
                        out.append("\n")
                    i += len(escape) + 1
                elif text.startswith(close, i):
                    i += len(close)
                    break
                elif text[i] == "\n":
                    if quote == '"':  # an unterminated one-line string ends at the line's end
                        break
                    out.append("\n")
                    i += 1
                else:
                    i += 1
            out.append('""')
            continue
        out.append(text[i])
        i += 1
    return "".join(out)


def imports_of(path):
    """[(line number, module)] for every import statement of a Swift file."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = code_only(f.read())
    found = []
    for number, line in enumerate(text.split("\n"), start=1):
        for statement in line.split(";"):
            m = IMPORT.match(statement)
            if m:
                found.append((number, m.group(1)))
    return found


def dependency_names(target):
    """Names of the targets (or products) a target declares as dependencies."""
    names = []
    for dep in target.get("dependencies", []):
        for kind in ("byName", "target"):
            if kind in dep and dep[kind]:
                names.append(dep[kind][0])
        # `.product(...)` names a product of another package: never a target of this one.
    return names


def target_folder(root, target):
    if target.get("path"):
        return os.path.join(root, target["path"])
    if target["type"] == "test":
        return os.path.join(root, "Tests", target["name"])
    if target["type"] == "plugin":
        return os.path.join(root, "Plugins", target["name"])
    return os.path.join(root, "Sources", target["name"])


def swift_files(folder, excluded):
    for directory, subdirs, files in os.walk(folder):
        subdirs[:] = sorted(d for d in subdirs if os.path.join(directory, d) not in excluded and not d.startswith("."))
        for name in sorted(files):
            path = os.path.join(directory, name)
            if name.endswith(".swift") and path not in excluded:
                yield path


def manifest_lines(root):
    """Target name -> line of its declaration in Package.swift (for the messages)."""
    lines = {}
    try:
        with open(os.path.join(root, "Package.swift"), encoding="utf-8") as f:
            for number, line in enumerate(f, start=1):
                for m in re.finditer(r'\.(?:target|executableTarget|testTarget|systemLibrary|macro|plugin|binaryTarget)'
                                     r'\(\s*name:\s*"([^"]+)"', line):
                    lines.setdefault(m.group(1), number)
    except OSError:
        pass
    return lines


def main():
    parser = argparse.ArgumentParser(description="Check that module dependencies point down (see Package.swift).")
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        help="the package's root folder (default: this repository)")
    args = parser.parse_args()
    root = os.path.abspath(args.root)

    try:
        dump = subprocess.run(["swift", "package", "dump-package"], cwd=root, capture_output=True, text=True)
    except OSError as error:
        print(f"layering: cannot run `swift package dump-package`: {error}", file=sys.stderr)
        return 2
    if dump.returncode != 0:
        sys.stderr.write(dump.stderr)
        print(f"layering: `swift package dump-package` failed in {root} (exit {dump.returncode})", file=sys.stderr)
        return 2
    try:
        targets = json.loads(dump.stdout)["targets"]
    except (ValueError, KeyError) as error:
        print(f"layering: unexpected output from `swift package dump-package`: {error}", file=sys.stderr)
        return 2

    def rel(path):
        return os.path.relpath(path, root)

    by_name = {t["name"]: t for t in targets}
    declared_at = manifest_lines(root)

    def in_manifest(name):
        line = declared_at.get(name)
        return f"Package.swift:{line}" if line else "Package.swift"

    def is_test_support(t):
        return t["type"] != "test" and (t.get("path") or "").replace("\\", "/").split("/")[0] == "Tests"

    def kind(t):
        if t["type"] == "test":
            return "test"
        return "test-support" if is_test_support(t) else "source"

    def describe(name):
        if name in LAYERS:
            return f"{name} (layer {LAYERS[name]})"
        return f"{name} ({kind(by_name[name])})" if name in by_name else name

    violations = []
    warnings = []

    # Every source module is in the table of Package.swift, in one layer.
    source_targets = [t for t in targets if kind(t) == "source"]
    LAYERS, table_problems = header_layers(root, [t["name"] for t in source_targets])
    violations.extend(table_problems)
    for t in source_targets:
        if t["name"] not in LAYERS:
            violations.append(f"{in_manifest(t['name'])}: {t['name']} is not in the layer table at the top of "
                              f"Package.swift: place it in a layer")

    def layer_problem(user, used):
        """Why `user` may not depend on `used`, or None."""
        u, d = by_name[user], by_name[used]
        if kind(u) == "test":
            return None
        if kind(u) == "test-support":
            return f"a test-support target must not use a test target" if kind(d) == "test" else None
        if kind(d) != "source":
            return f"a source module must not use a {kind(d)} target"
        if u["name"] not in LAYERS or d["name"] not in LAYERS:
            return None  # already reported as missing from the table
        lu, ld = LAYERS[u["name"]], LAYERS[d["name"]]
        if ld > lu:
            return "upward"
        if ld == lu:
            return "sideways (same layer)"
        return None

    # Declared dependencies.
    declared_count = 0
    for t in targets:
        for dep in dependency_names(t):
            if dep not in by_name:
                continue  # a product of another package
            declared_count += 1
            problem = layer_problem(t["name"], dep)
            if problem:
                violations.append(f"{in_manifest(t['name'])}: {describe(t['name'])} depends on {describe(dep)}: {problem}")

    # Imports.
    import_count = package_import_count = file_count = 0
    for t in targets:
        if t["type"] in ("system", "binary"):
            continue
        folder = target_folder(root, t)
        if not os.path.isdir(folder):
            warnings.append(f"warning: {t['name']}: no folder {rel(folder)}; its imports were not checked")
            continue
        excluded = {os.path.normpath(os.path.join(folder, e)) for e in t.get("exclude", [])}
        declared = set(dependency_names(t))
        for path in swift_files(folder, excluded):
            file_count += 1
            for line, module in imports_of(path):
                import_count += 1
                if module not in by_name or module == t["name"]:
                    continue  # Foundation, Glibc, Testing, ArgumentParser, Crypto, ...
                package_import_count += 1
                problems = []
                if module not in declared:
                    problems.append("not declared as a dependency in Package.swift")
                    problem = layer_problem(t["name"], module)
                    if problem:
                        problems.append(problem)
                    # (The layer of a declared dependency is checked, and reported, once at its declaration.)
                if problems:
                    violations.append(f"{rel(path)}:{line}: {describe(t['name'])} imports {describe(module)}: "
                                      + "; ".join(problems))

    for w in warnings:
        print(w, file=sys.stderr)
    if violations:
        for v in violations:
            print(v)
        print(f"layering: {len(violations)} violation{'s' if len(violations) != 1 else ''} "
              f"({len(targets)} modules, {file_count} Swift files, {package_import_count} imports of package modules)")
        return 1
    print(f"layering: {len(targets)} modules, {declared_count} declared dependencies, "
          f"{package_import_count} imports of package modules ({import_count} in all, {file_count} Swift files), "
          f"all point down")
    return 0


if __name__ == "__main__":
    sys.exit(main())
