"""The stubs' docstrings, copied from the installed package: each is written once, in the Rust
doc comment of a class or method the extension defines or in the docstring of a function of
``chessbits/__init__.py``, and ``chessbits/__init__.pyi`` carries a copy for editors, which
read stubs rather than a compiled module.

    python crates/python/stubdocs.py          rewrites the stub's docstrings
    python crates/python/stubdocs.py --check  fails (exit 1) where a copy differs, naming it

Every class, function, method and property of the stub whose runtime object has a docstring
gets that docstring; one without keeps what the stub says (its only copy). Overloads and
special methods (whose docstrings are Python's own) are left as they are. CI runs ``--check`` on the installed wheel, beside mypy's stubtest (which checks
the names and signatures).
"""

import ast
import inspect
import sys
import textwrap
from pathlib import Path

import chessbits

STUB = Path(__file__).parent / "python" / "chessbits" / "__init__.pyi"

# The stub's line width.
WIDTH = 100


def runtime_doc(owner, name):
    """The cleaned docstring of ``owner.name``, or None."""
    try:
        obj = inspect.getattr_static(owner, name)
    except AttributeError:
        return None
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    doc = getattr(obj, "__doc__", None)
    if not isinstance(doc, str) or not doc.strip():
        return None
    if owner is not chessbits and isinstance(owner, type):
        # A class inherits `object`'s docstrings for dunders it does not define.
        inherited = getattr(object, name, None)
        if inherited is not None and getattr(inherited, "__doc__", None) == doc:
            return None
    return inspect.cleandoc(doc)


def is_overload(node):
    return any(
        (isinstance(d, ast.Name) and d.id == "overload")
        or (isinstance(d, ast.Attribute) and d.attr == "overload")
        for d in node.decorator_list
    )


def render(doc, indent):
    """``doc`` as a docstring at ``indent``: one line if it fits, else its lines indented, a
    line too long for the stub's width wrapped."""
    doc = doc.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    width = WIDTH - indent
    lines = []
    for line in doc.split("\n"):
        lines.extend(textwrap.wrap(line, width, break_on_hyphens=False) if len(line) > width else [line])
    pad = " " * indent
    if len(lines) == 1 and indent + len(lines[0]) + 6 <= WIDTH:
        return f'{pad}"""{lines[0]}"""'
    body = "\n".join((pad + line) if line else "" for line in lines)
    return f'{pad}"""{body.lstrip()}\n{pad}"""'


def edits(tree, source_lines):
    """(first line, first column, last line, last column, text) replacements, 1-based lines."""
    out = []

    def visit(body, owner, indent):
        for node in body:
            if not isinstance(node, (ast.FunctionDef, ast.ClassDef)) or is_overload(node):
                continue
            if node.name.startswith("__") and node.name.endswith("__"):
                # Special methods: Python's own docstrings ("Return len(self).").
                continue
            target = getattr(owner, node.name, None) if owner is not None else None
            doc = runtime_doc(owner, node.name) if owner is not None else None
            first = node.body[0]
            has_doc = (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            )
            is_ellipsis = (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and first.value.value is Ellipsis
                and len(node.body) == 1
            )
            if doc is not None and has_doc:
                out.append(
                    (first.lineno, 0, first.end_lineno, first.end_col_offset, render(doc, indent + 4))
                )
            elif doc is not None and is_ellipsis:
                before = source_lines[first.lineno - 1][: first.col_offset]
                if before.strip():
                    # `def f(...) -> T: ...` on one line: the docstring replaces the `...`.
                    col, text = len(before.rstrip()), "\n" + render(doc, indent + 4)
                else:
                    col, text = 0, render(doc, indent + 4)
                out.append((first.lineno, col, first.end_lineno, first.end_col_offset, text))
            if isinstance(node, ast.ClassDef) and isinstance(target, type):
                visit(node.body, target, indent + 4)

    visit(tree.body, chessbits, 0)
    return out


def apply(source, changes):
    lines = source.split("\n")
    for first, col, last, end_col, text in sorted(changes, reverse=True):
        head = lines[first - 1][:col]
        tail = lines[last - 1][end_col:]
        lines[first - 1 : last] = (head + text + tail).split("\n")
    return "\n".join(lines)


def main():
    check = "--check" in sys.argv[1:]
    source = STUB.read_text()
    changes = edits(ast.parse(source), source.split("\n"))
    updated = apply(source, changes)
    if updated == source:
        print(f"stubdocs: {len(changes)} docstrings of {STUB.name} match the package's")
        return 0
    if check:
        old, new = source.split("\n"), updated.split("\n")
        for number, (a, b) in enumerate(zip(old, new), 1):
            if a != b:
                print(f"{STUB}:{number}: the stub's docstring differs from the package's:")
                print(f"  stub:    {a.strip()}\n  package: {b.strip()}")
                break
        print("stubdocs: run python crates/python/stubdocs.py to copy them")
        return 1
    STUB.write_text(updated)
    print(f"stubdocs: {len(changes)} docstrings copied into {STUB}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
