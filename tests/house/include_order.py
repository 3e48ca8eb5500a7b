#!/usr/bin/env python3
"""Checks that every include of a product folder runs downward.

The product folders stand in layers (docs/design.md, "Layers and folders"):

    core  <  pmns  <  archive, derive  <  libpmapi  <  pmdas, tools, dropin

A file may include headers of its own folder and of folders in lower
layers; an include that reaches a higher layer, or a sibling in the same
layer (archive and derive, pmdas and tools), is reported and the check
fails. Includes are resolved as the build resolves them: a quoted name is
looked for beside the including file first, then, as any name, in the
directories the build puts on the include path; a name no product header carries
(the standard library, Abseil, OpenSSL) is outside the product and
passes. A name two folders' headers both carry is reported too, since the
build's include order, not the layers, would then decide.

Usage: include_order.py SOURCE_DIR   (exit 0 clean, 1 with violations)
       include_order.py --self-test  (the check on a small tree of its own
                                      with one include of each kind it must
                                      report, and none it must pass)
"""
import os
import re
import sys
import tempfile

LAYERS = {
    "core": 0,
    "pmns": 1,
    "archive": 2, "derive": 2,
    "libpmapi": 3,
    "pmdas": 4, "tools": 4, "dropin": 4,
}
SOURCE_ENDINGS = (".h", ".cc", ".c", ".cpp", ".hpp")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def product_files(root):
    for folder in LAYERS:
        top = os.path.join(root, folder)
        for dirpath, _, names in os.walk(top):
            for name in names:
                if name.endswith(SOURCE_ENDINGS):
                    yield os.path.relpath(os.path.join(dirpath, name), root)


def folder_of(path):
    return path.split(os.sep, 1)[0]


def resolve(includer, name, headers_by_tail, root):
    beside = os.path.normpath(os.path.join(os.path.dirname(includer), name))
    if os.path.isfile(os.path.join(root, beside)):
        return [beside]
    return headers_by_tail.get((folder_of(includer) == "tools", name), [])


# The directories the build puts on the include path: the project root
# (for "pmdas/..."), each folder's public include/ and private src/, the
# library's parts below libpmapi/src, and the tools' common folder.
# The tools see the public headers and tools/common only; the library
# and the agents see every folder's include/ and src/ but not the tools'.
INCLUDE_ROOT = re.compile(r"^$|^[^/]+/include$")
LIBRARY_ROOT = re.compile(r"^[^/]+/src$|^libpmapi/src/[^/]+$")
TOOLS_ROOT = re.compile(r"^tools/common$")


def index_headers(files):
    """Maps (seen from tools?, include name) to the headers it can name."""
    by_name = {}
    for path in files:
        if not path.endswith((".h", ".hpp")):
            continue
        parts = path.split(os.sep)
        for i in range(len(parts)):
            root, name = "/".join(parts[:i]), "/".join(parts[i:])
            for tools in (False, True):
                private = TOOLS_ROOT if tools else LIBRARY_ROOT
                if INCLUDE_ROOT.match(root) or private.match(root):
                    by_name.setdefault((tools, name), []).append(path)
    return by_name


def check_file(path, headers_by_tail, root):
    problems = []
    here = folder_of(path)
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            targets = resolve(path, m.group(2), headers_by_tail, root)
            folders = sorted({folder_of(t) for t in targets})
            close = ">" if m.group(1) == "<" else '"'
            where = f"{path}:{number}: #include {m.group(1)}{m.group(2)}{close}"
            if len(folders) > 1:
                problems.append(f"{where}: ambiguous, in {', '.join(folders)}")
                continue
            if not folders or folders[0] == here:
                continue
            there = folders[0]
            if LAYERS[there] > LAYERS[here]:
                problems.append(f"{where}: {here} (layer {LAYERS[here]}) reaches up to {there} (layer {LAYERS[there]})")
            elif LAYERS[there] == LAYERS[here]:
                problems.append(f"{where}: {here} reaches sideways to {there}")
    return problems


def check_tree(root):
    files = sorted(product_files(root))
    headers_by_tail = index_headers(files)
    problems = []
    for path in files:
        problems.extend(check_file(path, headers_by_tail, root))
    return files, problems


# A small tree: what each file includes, and whether the check must
# report it.
SELF_TEST_TREE = {
    "core/include/pmapi/types.h": ("", False),
    "core/src/codec.h": ('#include "pmapi/types.h"', False),
    "pmns/src/pmns.cc": ('#include "codec.h"\n#include <vector>', False),
    "archive/src/reader.h": ('#include "pmapi/context.h"', True),
    "derive/src/eval.cc": ('#include "reader.h"', True),
    "libpmapi/include/pmapi/context.h": ('#include "pmapi/types.h"', False),
    "libpmapi/src/context/source.h": ('#include "reader.h"', False),
    "libpmapi/src/local/local.cc": ('#include "pmdas/linux/agent.h"', True),
    "pmdas/linux/agent.h": ('#include "pmapi/context.h"', False),
    "tools/common/source.h": ('#include "pmapi/context.h"', False),
    "tools/pminfo/pminfo.cc": ('#include "source.h"', False),
}


def self_test():
    with tempfile.TemporaryDirectory() as root:
        for path, (text, _) in SELF_TEST_TREE.items():
            os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(root, path), "w", encoding="utf-8") as f:
                f.write(text + "\n")
        _, problems = check_tree(root)
    reported = sorted({p.split(":", 1)[0] for p in problems})
    expected = sorted(path for path, (_, bad) in SELF_TEST_TREE.items() if bad)
    if reported != expected:
        print(f"self-test: reported {reported}, expected {expected}")
        return 1
    print(f"self-test: {len(expected)} includes against the layers reported, the others passed")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) != 2:
        print("usage: include_order.py SOURCE_DIR", file=sys.stderr)
        return 2
    files, problems = check_tree(sys.argv[1])
    for p in problems:
        print(p)
    print(f"{len(files)} files read, {len(problems)} includes against the layers")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
