#!/usr/bin/env python3
"""Checks that the sources keep the layout src/README.md describes.

    python3 scripts/check_layout.py [REPOSITORY]

1. The library's folders form layers, lowest first (LAYERS): a file includes headers of its own
   folder or of folders below it, never above. The command-line tools in src/app/ sit on top.
2. The modules include one another without a cycle. A module is a file pair (src/F/x.hpp and
   src/F/x.cpp); a public header include/sgx/x.hpp belongs to the folder PUBLIC_HEADERS names,
   and to the module of the same name there.
3. No file in src/, include/, python/ or tests/ is longer than MAX_LINES lines.
4. Private headers are included by their path from src/ ("sparse/pair_bits.hpp"), so that every
   include says which folder it reaches into.

Prints one line per fault and exits 1 if there is any, 0 if none, 2 on a usage error.
"""

import pathlib
import re
import sys

# The library's folders, lowest first. Each may include only from itself and those before it.
LAYERS = ["base", "games", "analysis", "kernels", "sparse", "store", "engine", "play", "sweep", "app"]

# The folder of each public header (include/sgx/NAME.hpp), which is the folder of its sources.
PUBLIC_HEADERS = {
    "sequence": "base", "numbers": "base", "provenance": "base", "work_span": "base", "version": "base",
    "rules": "games", "games": "games", "classic": "games",
    "stats": "analysis", "period": "analysis", "sparse_state": "analysis",
    "kernel_kind": "kernels", "table2d": "kernels",
    "store": "store", "bfile": "store",
    "engine": "engine", "report": "engine", "run_session": "engine",
    "solve": "play",
    "sweep": "sweep", "sweep_table": "sweep",
}

MAX_LINES = 800
CHECKED_FOR_LENGTH = ["src", "include", "python", "tests"]
SOURCE_SUFFIXES = {".cpp", ".hpp", ".h", ".in", ".py", ".pyi"}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def module_of_public(name, faults, where):
    folder = PUBLIC_HEADERS.get(name)
    if folder is None:
        faults.append(f"{where}: include/sgx/{name}.hpp is in no layer: add it to PUBLIC_HEADERS "
                      f"in scripts/check_layout.py")
        return None
    return (folder, name)


def module_of_include(text, including_folder, faults, where):
    """The (folder, module) an include "text" reaches, or None if it is not one of ours."""
    path = pathlib.PurePosixPath(text)
    if path.parts[0] == "sgx":
        return module_of_public(path.stem, faults, where)
    if len(path.parts) == 2 and path.parts[0] in LAYERS:
        return (path.parts[0], path.stem)
    if len(path.parts) == 1 and including_folder == "app":
        return ("app", path.stem)  # the tools' own headers, beside them
    faults.append(f'{where}: #include "{text}": include a private header by its path from src/ '
                  f'(e.g. "sparse/{path.name}")')
    return None


def check(root):
    faults = []
    edges = {}  # module -> {module: where}
    src = root / "src"
    for folder in sorted(p.name for p in src.iterdir() if p.is_dir()):
        if folder not in LAYERS:
            faults.append(f"src/{folder}/: a folder in no layer: add it to LAYERS in scripts/check_layout.py "
                          f"and say in src/README.md what it may include")
    sources = [(p, p.parent.name) for p in sorted(src.glob("*/*")) if p.suffix in {".cpp", ".hpp"}]
    for header in sorted((root / "include" / "sgx").glob("*.hpp*")):
        name = header.name.split(".")[0]
        if module_of_public(name, faults, str(header.relative_to(root))):
            sources.append((header, PUBLIC_HEADERS[name]))
    for path, folder in sources:
        if folder not in LAYERS:
            continue
        where = str(path.relative_to(root))
        own = (folder, path.name.split(".")[0])
        for text in INCLUDE.findall(path.read_text(encoding="utf-8")):
            target = module_of_include(text, folder, faults, where)
            if target is None:
                continue
            if LAYERS.index(target[0]) > LAYERS.index(folder):
                faults.append(f'{where}: #include "{text}" reaches up from {folder}/ to {target[0]}/ '
                              f"(layers, lowest first: {' < '.join(LAYERS)})")
            if target != own:
                edges.setdefault(own, {}).setdefault(target, where)
    faults += cycles(edges)
    for top in CHECKED_FOR_LENGTH:
        for path in sorted((root / top).rglob("*")):
            if path.is_file() and path.suffix in SOURCE_SUFFIXES and "__pycache__" not in path.parts:
                with open(path, encoding="utf-8", errors="replace") as text:
                    lines = sum(1 for _ in text)
                if lines > MAX_LINES:
                    faults.append(f"{path.relative_to(root)}: {lines} lines, more than {MAX_LINES}: "
                                  f"split it by what its parts do")
    return faults


def cycles(edges):
    """One fault per include cycle among modules found by a depth-first search."""
    faults, state, stack = [], {}, []

    def visit(module):
        state[module] = "open"
        stack.append(module)
        for target, where in sorted(edges.get(module, {}).items()):
            if state.get(target) == "open":
                loop = stack[stack.index(target):] + [target]
                faults.append(f"{where}: closes an include cycle: "
                              + " -> ".join(f"{f}/{m}" for f, m in loop))
            elif target not in state:
                visit(target)
        stack.pop()
        state[module] = "done"

    for module in sorted(edges):
        if module not in state:
            visit(module)
    return faults


def main(argv):
    if len(argv) > 2 or (len(argv) == 2 and argv[1] in {"-h", "--help"}):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    root = pathlib.Path(argv[1] if len(argv) == 2 else pathlib.Path(__file__).resolve().parent.parent)
    if not (root / "src").is_dir() or not (root / "include" / "sgx").is_dir():
        print(f"check_layout.py: {root} holds no src/ and include/sgx/: give the repository's folder",
              file=sys.stderr)
        return 2
    faults = check(root)
    for fault in faults:
        print(fault)
    if not faults:
        print(f"layout: {len(LAYERS)} layers, includes only downward and without cycles, "
              f"no file over {MAX_LINES} lines")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
