#!/usr/bin/env python3
"""Compiles the examples in the comments of the public C++ headers.

Most public headers (pmapi/*.h under each folder's include/) open with a
comment holding an example of their use:

    // Given: pmapi::Context& ctx, pmapi::PmID id
    // Example:
    //   absl::StatusOr<pmapi::Result> r = ctx.Fetch({id});
    //   if (!r.ok()) return r.status();

An example block is the comment lines after a line "// Example:" (or
"// Example (what it shows):") that are indented comment lines ("//" and
at least two spaces) or empty comment lines ("//") with more indented
lines after them; it ends at the first other line. Its lines lose the
"//" and their common indentation.

For each header the check writes one translation unit: the header
included first (so it must stand alone), then a fixed prelude of standard
and Abseil headers (PRELUDE below), then each example of the header as
the body of a function

    absl::Status Example_<header>[_<n>](<given>) { <example> return absl::OkStatus(); }

and compiles it with the project's compiler and warning flags (warnings
are errors) against the public include directories only, so that an
example naming a private header or a declaration that no longer exists
fails. A discarded [[nodiscard]] result or Status fails too; a variable an
example sets and never reads does not (-Wno-unused-variable and friends).

The conventions an example may use, so that it is complete C++:
  - "// Given: DECLARATIONS" on the line(s) just before "Example:" names
    what the example assumes, as a parameter list ("pmapi::Context& ctx,
    pmapi::InDom indom"): they become the function's parameters. Its
    continuation lines are indented comment lines.
  - An example line "#include ..." (another public header, a standard
    header) goes to file scope, before the function.
  - An example whose first line is a function's head ("void F(ARGS) {")
    defines that function: it is placed at file scope as it is, with no
    wrapper.
  - The example returns absl::Status: "return s;" and
    "return r.status();" work as in any such function.
Compiler messages point at the header's own lines (#line), and a failure
is reported per example block.

Usage: header_examples.py [--cxx=CXX] [--flags='F F ...'] [--system-includes='DIR;...']
           [--root SOURCE_DIR] [--out DIR] [-j N] INCLUDE_DIR...
           (exit 0 when every example compiles, 1 otherwise; flags and
           directories are separated by spaces or ';')
       header_examples.py --self-test [--cxx=CXX] [--flags=...]
           (the check on a small tree of its own with one good and one
           bad example: it must report exactly the bad one)
"""
import argparse
import concurrent.futures
import glob
import os
import re
import subprocess
import sys
import tempfile

EXAMPLE = re.compile(r"^//\s*Example\b[^:]*:\s*$")
GIVEN = re.compile(r"^//\s*Given:\s*(.*)$")
INDENTED = re.compile(r"^//\s{2,}\S")
EMPTY = re.compile(r"^//\s*$")
FUNCTION_HEAD = re.compile(r"^(?!(?:if|for|while|switch|return|else|do)\b)"
                           r"[A-Za-z_][\w:<>,*& ]*\s[*&]*[A-Za-z_][\w:]*\s*\([^;]*\)\s*(?:const\s*)?\{\s*$")

# Included after the header in every translation unit.
PRELUDE = [
    "<cstdint>", "<ctime>", "<iostream>", "<memory>", "<optional>", "<span>",
    "<string>", "<string_view>", "<vector>",
    '"absl/status/status.h"', '"absl/status/statusor.h"', '"absl/time/time.h"',
]

# Added to the project's flags: only check, and let an example leave a
# value it makes unread.
CHECK_FLAGS = ["-fsyntax-only", "-Wno-unused-variable", "-Wno-unused-but-set-variable",
               "-Wno-unused-parameter"]


class Block:
    """One example: where it is, what it assumes, its code lines."""

    def __init__(self, header, display, index, line, given, given_line, lines):
        self.header = header
        self.display = display    # the header's name in messages
        self.index = index        # 1, 2, ... within the header
        self.line = line          # the "Example:" line (1-based)
        self.given = given        # the parameter list, or ""
        self.given_line = given_line
        self.lines = lines        # [(line number, code)]

    def span(self):
        first = self.given_line or self.line
        last = self.lines[-1][0] if self.lines else self.line
        return first, last


def comment_text(raw):
    return raw[2:]


def extract(path, display):
    """Returns the example blocks of a header, and convention errors."""
    with open(path, encoding="utf-8") as f:
        text = [line.rstrip("\n") for line in f]
    blocks, problems = [], []
    given, given_line = None, 0
    i = 0
    while i < len(text):
        line = text[i]
        m = GIVEN.match(line)
        if m:
            given_line = i + 1
            parts = [m.group(1).strip()]
            i += 1
            while i < len(text) and INDENTED.match(text[i]):
                parts.append(comment_text(text[i]).strip())
                i += 1
            given = " ".join(p for p in parts if p)
            if i >= len(text) or not EXAMPLE.match(text[i]):
                problems.append(f"{display}:{given_line}: Given: is not followed by an Example: line")
                given, given_line = None, 0
            continue
        if EXAMPLE.match(line):
            start = i + 1
            j = start
            body = []
            while j < len(text):
                if INDENTED.match(text[j]):
                    body.append((j + 1, comment_text(text[j])))
                elif EMPTY.match(text[j]):
                    body.append((j + 1, ""))
                else:
                    break
                j += 1
            while body and not body[-1][1].strip():
                body.pop()
            if not body:
                problems.append(f"{display}:{start}: Example: has no indented code lines")
            indent = min((len(c) - len(c.lstrip()) for _, c in body if c.strip()), default=0)
            body = [(n, c[indent:]) for n, c in body]
            blocks.append(Block(path, display, len(blocks) + 1, start, given or "",
                                given_line if given else 0, body))
            given, given_line = None, 0
            i = j
            continue
        i += 1
    return blocks, problems


def c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def function_name(header, index):
    stem = re.sub(r"\W", "_", os.path.splitext(os.path.basename(header))[0])
    return f"Example_{stem}" + (f"_{index}" if index > 1 else "")


def translation_unit(include_name, blocks):
    """The source that compiles a header's examples."""
    out = [f"// Examples of {include_name}, generated by tests/house/header_examples.py.",
           f'#include "{include_name}"']
    out += [f"#include {p}" for p in PRELUDE]
    for b in blocks:
        where = c_string(b.display)
        out.append("")
        code = [(n, c) for n, c in b.lines]
        includes = [(n, c) for n, c in code if c.lstrip().startswith("#include")]
        code = [(n, c) for n, c in code if not c.lstrip().startswith("#include")]
        for n, c in includes:
            out.append(f"#line {n} {where}")
            out.append(c.strip())
        first = next((c for _, c in code if c.strip()), "")
        at_file_scope = bool(FUNCTION_HEAD.match(first)) and not b.given
        if not at_file_scope:
            out.append(f"#line {b.given_line or b.line} {where}")
            out.append(f"absl::Status {function_name(b.header, b.index)}({b.given}) {{")
        for n, c in code:
            out.append(f"#line {n} {where}")
            out.append(("  " if not at_file_scope else "") + c)
        if not at_file_scope:
            out.append(f"#line {b.span()[1]} {where}")
            out.append("  return absl::OkStatus();")
            out.append("}")
    out.append("")
    return "\n".join(out)


def compile_unit(cxx, flags, includes, source):
    cmd = [cxx] + flags + CHECK_FLAGS + [f"-I{d}" for d in includes] + [source]
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, check=False)
    return done.returncode, done.stdout


def failing_blocks(blocks, output):
    """The blocks the compiler's messages point into (by their lines)."""
    found = []
    for b in blocks:
        first, last = b.span()
        pattern = re.compile(r"^" + re.escape(b.display) + r":(\d+):", re.M)
        if any(first <= int(m.group(1)) <= last for m in pattern.finditer(output)):
            found.append(b)
    return found


def public_headers(include_dirs):
    for d in include_dirs:
        for path in sorted(glob.glob(os.path.join(d, "pmapi", "*.h"))):
            yield d, path


def check(include_dirs, cxx, flags, system_includes, root, out_dir, jobs):
    """Compiles every header's examples; returns (blocks, headers, failures)
    where failures lists (display name, block or None, compiler output)."""
    work = []
    problems = []
    for d, path in public_headers(include_dirs):
        display = os.path.relpath(path, root) if root else path
        blocks, bad = extract(path, display)
        problems.extend(bad)
        if blocks:
            include_name = os.path.relpath(path, d)
            work.append((path, display, include_name, blocks))
    failures = [(p, None, "") for p in problems]
    includes = list(include_dirs) + [s for s in system_includes
                                     if s and s not in ("/usr/include", "/usr/local/include")]

    def run(item):
        path, display, include_name, blocks = item
        name = re.sub(r"\W", "_", display) + ".cc"
        source = os.path.join(out_dir, name)
        with open(source, "w", encoding="utf-8") as f:
            f.write(translation_unit(include_name, blocks))
        rc, output = compile_unit(cxx, flags, includes, source)
        return item, rc, output

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for (path, display, include_name, blocks), rc, output in pool.map(run, work):
            if rc == 0:
                continue
            hit = failing_blocks(blocks, output)
            if not hit:
                failures.append((display, None, output))
            for b in hit:
                failures.append((display, b, output))
    nblocks = sum(len(w[3]) for w in work)
    return nblocks, len(work), failures


def report(failures):
    shown = set()
    for display, block, output in failures:
        if block is None:
            print(f"{display}: the examples' translation unit does not compile" if output
                  else display)
        else:
            print(f"{display}:{block.line}: example {block.index} does not compile")
        if output and id(output) not in shown:
            shown.add(id(output))
            print("    " + output.rstrip().replace("\n", "\n    "))


# A small tree: one header whose examples compile (using each convention),
# and one whose second example does not.
SELF_TEST_TREE = {
    "good/pmapi/good.h": """\
// pmapi/good.h: a header whose examples compile.
//
// Given: const pmapi::Widget& w
// Example:
//   int size = w.size();
//   if (size < 0) return absl::InvalidArgumentError("negative");
//
//   std::vector<int> sizes = {size};
//
// Example (at file scope):
//   int Twice(const pmapi::Widget& w) {
//     return 2 * w.size();
//   }
#ifndef PMAPI_GOOD_H_
#define PMAPI_GOOD_H_
namespace pmapi {
struct Widget {
  [[nodiscard]] int size() const { return 1; }
};
}  // namespace pmapi
#endif
""",
    "bad/pmapi/bad.h": """\
// pmapi/bad.h: a header with one good example and one that rotted.
//
// Example:
//   #include "pmapi/good.h"
//   pmapi::Gadget g;
//   int n = g.count();
#ifndef PMAPI_BAD_H_
#define PMAPI_BAD_H_
namespace pmapi {
struct Gadget {
  [[nodiscard]] int count() const { return 1; }
};
}  // namespace pmapi
#endif
// Example:
//   pmapi::Gadget g;
//   g.count();
""",
}


def self_test(cxx, flags, system_includes):
    with tempfile.TemporaryDirectory() as root:
        for path, text in SELF_TEST_TREE.items():
            os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(root, path), "w", encoding="utf-8") as f:
                f.write(text)
        dirs = [os.path.join(root, "bad"), os.path.join(root, "good")]
        out_dir = os.path.join(root, "out")
        os.makedirs(out_dir)
        nblocks, nheaders, failures = check(dirs, cxx, flags, system_includes, root, out_dir, 2)
    reported = sorted((d, b.index if b else None) for d, b, _ in failures)
    expected = [("bad/pmapi/bad.h", 2)]
    if reported != expected or (nblocks, nheaders) != (4, 2):
        report(failures)
        print(f"self-test: {nblocks} examples in {nheaders} headers, reported {reported}, "
              f"expected {expected} of 4 examples in 2 headers")
        return 1
    print("self-test: the example that does not compile reported, the other three passed")
    return 0


def split_list(value):
    return [v for v in re.split(r"[;\s]+", value or "") if v]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--self-test", action="store_true")
    parser.add_argument("--cxx", default=os.environ.get("CXX", "c++"))
    parser.add_argument("--flags", default="-std=c++20;-Wall;-Wextra;-Werror",
                        help="the project's compile flags, ';' or space separated")
    parser.add_argument("--system-includes", default="",
                        help="include directories of the dependencies (Abseil)")
    parser.add_argument("--root", default=None, help="names in messages are relative to it")
    parser.add_argument("--out", default=None, help="keep the generated sources here")
    parser.add_argument("-j", "--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("include_dirs", nargs="*")
    args = parser.parse_args()
    flags = split_list(args.flags)
    system_includes = split_list(args.system_includes)
    if args.self_test:
        return self_test(args.cxx, flags, system_includes)
    if not args.include_dirs:
        parser.print_usage(sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as scratch:
        out_dir = args.out or scratch
        os.makedirs(out_dir, exist_ok=True)
        nblocks, nheaders, failures = check(args.include_dirs, args.cxx, flags, system_includes,
                                            args.root, out_dir, args.jobs)
    report(failures)
    print(f"{nblocks} examples of {nheaders} headers compiled, {len(failures)} failed")
    return 1 if failures or nblocks == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
