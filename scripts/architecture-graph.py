#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Draws raudio's modules and their arrows: docs/architecture.dot (Graphviz), and docs/architecture.svg when
Graphviz's `dot` is installed. The picture of docs/ARCHITECTURE.md.

What it reads:
- `swift package dump-package` (Package.swift as JSON): the library and executable targets of Sources/, the
  dependencies each declares, the C modules, the Swift packages and how they are pinned. Test targets and the
  test helpers under Tests/ are left out.
- each C module's module.modulemap: the libraries it links (`link "..."`); a C module that links none holds
  headers only, or loads its library with dlopen.
- the sources of each module, for two arrows Package.swift does not show: an `import` of a module the target
  does not declare (it compiles because another dependency brings it), and a shared library named by its
  soname ("libxml2.so.2") outside a comment, which raudio loads with dlopen at run time.

Arrows point from the module that uses to the module used. A declared arrow between Swift modules that a
longer path of declared arrows already implies is left out (RAudioCLI declares ReadiumShared, which it reaches
through RAudioPlayer); every arrow into a C module is drawn.

Usage: scripts/architecture-graph.py [--check] [--dump FILE]
  (none)       write docs/architecture.dot, and docs/architecture.svg if `dot` is on the PATH
  --check      write nothing: fail (exit 1, with the difference) when docs/architecture.dot is not what
               Package.swift and the sources give now, or docs/architecture.svg was not drawn from it
  --dump FILE  read the package's JSON from FILE instead of running `swift package dump-package`
Environment: SWIFT, the swift executable (default: swift on the PATH, else /opt/swift/usr/bin/swift).
Exit status: 0 done or up to date, 1 out of date, 2 a tool failed, 64 bad usage.
"""
import difflib
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOT_FILE = ROOT / "docs" / "architecture.dot"
SVG_FILE = ROOT / "docs" / "architecture.svg"
REGENERATE = "python3 scripts/architecture-graph.py"

# Modules of the toolchain and the system: not drawn.
SYSTEM_MODULES = {
    "Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "Glibc", "Darwin", "Dispatch",
    "Synchronization", "_Concurrency", "Observation", "RegexBuilder", "Testing", "XCTest",
}
IMPORT = re.compile(
    r"^\s*(?:@[\w()]+\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+"
    r"(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_]\w*)"
)
SONAME = re.compile(r'"lib([A-Za-z0-9_+-]+?)\.so(?:\.[0-9]+)*"')
LINK = re.compile(r'^\s*link\s+"([^"]+)"', re.MULTILINE)
COMMENT = re.compile(r"^\s*(//|/\*|\*)")

# Node colours: one per kind of box.
STYLE = {
    "executable": "#f4d6a0",
    "raudio": "#bcd6f2",
    "readium": "#c9e7c0",
    "c-linked": "#f2c1bc",
    "c-unlinked": "#f7e1de",
    "runtime": "#ffffff",
    "package": "#e3dcf0",
}


def swift_executable():
    return os.environ.get("SWIFT") or shutil.which("swift") or "/opt/swift/usr/bin/swift"


def dump_package():
    """Package.swift as JSON, from a scratch folder of its own (no lock shared with a running build), with the
    whole package (RAUDIO_PACKAGE_SUBSET left out)."""
    environment = {key: value for key, value in os.environ.items() if key != "RAUDIO_PACKAGE_SUBSET"}
    with tempfile.TemporaryDirectory(prefix="raudio-architecture-") as scratch:
        try:
            result = subprocess.run(
                [swift_executable(), "package", "--package-path", str(ROOT), "--scratch-path", scratch, "dump-package"],
                capture_output=True, text=True, env=environment, timeout=600,
            )
        except (OSError, subprocess.TimeoutExpired) as error:
            fail(f"cannot run {swift_executable()} package dump-package: {error}")
    if result.returncode != 0:
        fail(f"swift package dump-package exited with {result.returncode}:\n{result.stderr}")
    return json.loads(result.stdout)


def fail(message):
    print(f"architecture-graph: {message}", file=sys.stderr)
    sys.exit(2)


def source_files(folder, suffixes):
    if not folder.is_dir():
        return []
    return sorted(path for path in folder.rglob("*") if path.is_file() and path.suffix in suffixes)


def read(path):
    return path.read_text(encoding="utf-8", errors="replace")


class Module:
    def __init__(self, target):
        self.name = target["name"]
        self.type = target["type"]
        self.folder = ROOT / (target.get("path") or f"Sources/{self.name}")
        self.targets = []  # declared dependencies on targets of this package, by name
        self.products = {}  # package identity -> [product names]
        for dependency in target["dependencies"]:
            if "byName" in dependency:
                self.targets.append(dependency["byName"][0])
            elif "target" in dependency:
                self.targets.append(dependency["target"][0])
            elif "product" in dependency:
                name, package = dependency["product"][0], dependency["product"][1]
                self.products.setdefault((package or name).lower(), []).append(name)
        self.is_swift = self.type != "system" and bool(source_files(self.folder, {".swift"}))
        self.links = []
        for modulemap in source_files(self.folder, {".modulemap"}):
            self.links += LINK.findall(read(modulemap))

    @property
    def kind(self):
        if self.type == "executable":
            return "executable"
        if not self.is_swift:
            return "c-linked" if self.links else "c-unlinked"
        return "readium" if self.name.startswith("Readium") else "raudio"

    def imports(self):
        """The modules its Swift files import."""
        found = set()
        for path in source_files(self.folder, {".swift"}):
            for line in read(path).splitlines():
                match = IMPORT.match(line)
                if match:
                    found.add(match.group(1))
        return found

    def sonames(self):
        """The shared libraries its sources name by soname (outside comments): loaded with dlopen."""
        found = set()
        for path in source_files(self.folder, {".swift", ".c", ".h"}):
            for line in read(path).splitlines():
                if not COMMENT.match(line):
                    found.update(SONAME.findall(line))
        return found


def requirement(dependency):
    """How a package is pinned, as Package.swift says it."""
    rule = dependency.get("requirement", {})
    if "exact" in rule:
        return f"exact {rule['exact'][0]}"
    if "range" in rule:
        bounds = rule["range"][0]
        return f"from {bounds['lowerBound']} below {bounds['upperBound']}"
    if "branch" in rule:
        return f"branch {rule['branch'][0]}"
    if "revision" in rule:
        return f"revision {rule['revision'][0][:12]}"
    return "local"


def packages(package):
    """identity -> (URL or path, pin) of the package's dependencies."""
    found = {}
    for dependency in package["dependencies"]:
        for kind, entries in dependency.items():
            for entry in entries:
                identity = entry["identity"]
                location = entry.get("location", {})
                remote = location.get("remote") if isinstance(location, dict) else None
                where = remote[0]["urlString"] if remote else entry.get("path", identity)
                found[identity] = (where.rstrip("/").split("/")[-1], requirement(entry))
    return found


def implied(edges, start, end):
    """Whether `end` is reachable from `start` without the arrow start -> end."""
    seen, stack = set(), [node for node in edges.get(start, []) if node != end]
    while stack:
        node = stack.pop()
        if node == end:
            return True
        if node not in seen:
            seen.add(node)
            stack.extend(edges.get(node, []))
    return False


def quoted(text):
    """`text` as a Graphviz string; a `\\n` in it stays a line break."""
    return '"' + text.replace('"', '\\"') + '"'


def attributes(**values):
    return "[" + ", ".join(f"{key}={quoted(str(value))}" for key, value in values.items()) + "]"


def graph(package):
    """The Graphviz text of the package's modules, and the digest of that text (also the SVG's id)."""
    modules = {}
    for target in package["targets"]:
        module = Module(target)
        if module.type in ("test", "plugin", "macro") or not module.folder.is_relative_to(ROOT / "Sources"):
            continue
        modules[module.name] = module
    names = set(modules)
    edges = {name: sorted(set(dep for dep in module.targets if dep in names)) for name, module in modules.items()}
    pins = packages(package)

    lines = [
        "// Generated by scripts/architecture-graph.py from `swift package dump-package` and the sources: do not edit.",
        "// Run `python3 scripts/architecture-graph.py` after changing Package.swift (docs/ARCHITECTURE.md).",
        "digraph raudio {",
        '    graph [rankdir="LR", nodesep="0.25", ranksep="0.6", fontname="Helvetica", fontsize="12", labeljust="l"];',
        '    node [shape="box", style="rounded,filled", fontname="Helvetica", fontsize="11"];',
        '    edge [arrowsize="0.6", color="#333333", fontname="Helvetica"];',
    ]

    def node(name, label, kind, style="rounded,filled"):
        return f"{quoted(name)} {attributes(label=label, fillcolor=STYLE[kind], style=style)};"

    def cluster(identifier, label, members, indent="    ", style="rounded"):
        """A box around `members` (pairs of a name and its node's line)."""
        lines.append(f"{indent}subgraph cluster_{identifier} {{")
        lines.append(f"{indent}    graph {attributes(label=label, style=style, color='#999999')};")
        lines.extend(f"{indent}    {line}" for _, line in members)
        lines.append(f"{indent}}}")

    c_modules = {"c-linked": [], "c-unlinked": []}
    for name in sorted(modules):
        module = modules[name]
        label = name + "".join(f"\\n-l{library}" for library in module.links)
        if module.kind in c_modules:
            c_modules[module.kind].append((name, node(name, label, module.kind)))
        else:
            lines.append("    " + node(name, label, module.kind))
    lines.append("    subgraph cluster_c {")
    lines.append(f"        graph {attributes(label='C modules (Sources/C*)', style='rounded', color='#999999')};")
    cluster("c_linked", "linked", c_modules["c-linked"], indent="        ", style="dashed")
    cluster("c_unlinked", "headers and loaders (nothing linked)", c_modules["c-unlinked"], indent="        ", style="dashed")
    lines.append("    }")

    used = {}
    for module in modules.values():
        for identity, products in module.products.items():
            used.setdefault(identity, set()).update(products)
    package_nodes = []
    for identity in sorted(used):
        name, pin = pins.get(identity, (identity, "not a dependency"))
        package_nodes.append((identity, node(identity, f"{name} ({pin})\\n" + ", ".join(sorted(used[identity])), "package")))
    cluster("packages", "Swift packages (pinned in Package.swift)", package_nodes)

    lines.append("    // Declared dependencies, less those between Swift modules that a longer path of declared ones implies.")
    for name in sorted(modules):
        for dependency in edges[name]:
            if modules[dependency].is_swift and implied(edges, name, dependency):
                continue
            # Arrows into C in red.
            colour = "" if modules[dependency].is_swift else " " + attributes(color="#b03a2e")
            lines.append(f"    {quoted(name)} -> {quoted(dependency)}{colour};")
        for identity in sorted(modules[name].products):
            lines.append(f"    {quoted(name)} -> {quoted(identity)} {attributes(color='#7d6b9e')};")

    lines.append("    // Imports without a declared dependency (they compile because another dependency brings the module).")
    undeclared = []
    for name in sorted(modules):
        module = modules[name]
        if module.is_swift:
            declared = set(module.targets) | {product for products in module.products.values() for product in products}
            undeclared += [(name, imported) for imported in sorted(module.imports() - declared - SYSTEM_MODULES - {name})]
    for imported in sorted({imported for _, imported in undeclared} - names):
        lines.append("    " + node(imported, imported, "c-linked" if imported.startswith("C") else "package", "rounded,dashed,filled"))
    for name, imported in undeclared:
        lines.append(f"    {quoted(name)} -> {quoted(imported)} {attributes(label='import only', fontsize='9', style='dashed', color='#d35400')};")

    lines.append("    // Shared libraries a module's sources name by soname: loaded with dlopen at run time.")
    for name in sorted(modules):
        libraries = sorted(modules[name].sonames())
        if libraries:
            loaded = f"dlopen {name}"
            lines.append("    " + node(loaded, "dlopen\\n" + " ".join(f"lib{library}" for library in libraries), "runtime", "rounded,dashed,filled"))
            lines.append(f"    {quoted(name)} -> {quoted(loaded)} {attributes(style='dotted', color='#b03a2e')};")
    # Last, so that no cluster inherits it: the SVG's top group is named after the digest of the rest.
    lines.append("    ID_LINE")
    lines.append("}")
    text = "\n".join(lines) + "\n"
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    return text.replace("    ID_LINE", f"    graph [id={quoted('architecture_' + digest)}];"), digest


def main(arguments):
    check = "--check" in arguments
    dump = None
    if "--dump" in arguments:
        index = arguments.index("--dump")
        if index + 1 >= len(arguments):
            fail("--dump needs a file")
        dump = arguments[index + 1]
    unknown = [argument for argument in arguments if argument not in ("--check", "--dump", dump)]
    if unknown:
        print(__doc__, file=sys.stderr)
        sys.exit(64)
    package = json.loads(Path(dump).read_text(encoding="utf-8")) if dump else dump_package()
    text, digest = graph(package)
    if check:
        current = DOT_FILE.read_text(encoding="utf-8") if DOT_FILE.exists() else ""
        if current != text:
            difference = difflib.unified_diff(current.splitlines(), text.splitlines(), "docs/architecture.dot (committed)",
                                              "docs/architecture.dot (from Package.swift now)", lineterm="")
            print("\n".join(difference))
            print(f"architecture-graph: docs/architecture.dot is out of date: run `{REGENERATE}` (with graphviz for the SVG)",
                  file=sys.stderr)
            return 1
        if not SVG_FILE.exists() or f'id="architecture_{digest}"' not in SVG_FILE.read_text(encoding="utf-8"):
            print(f"architecture-graph: docs/architecture.svg was not drawn from docs/architecture.dot: run `{REGENERATE}` "
                  "with graphviz installed", file=sys.stderr)
            return 1
        return 0
    DOT_FILE.write_text(text, encoding="utf-8")
    print(f"architecture-graph: wrote {DOT_FILE.relative_to(ROOT)}")
    dot = shutil.which("dot")
    if dot:
        result = subprocess.run([dot, "-Tsvg", str(DOT_FILE), "-o", str(SVG_FILE)], capture_output=True, text=True)
        if result.returncode != 0:
            fail(f"dot failed: {result.stderr}")
        print(f"architecture-graph: wrote {SVG_FILE.relative_to(ROOT)}")
    else:
        print("architecture-graph: Graphviz's dot is not installed: docs/architecture.svg not redrawn", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
