"""The package's shape (SPEC §2): data flows one way, so imports point down the layers, never up and
never round in a circle; modules and functions stay small enough to read."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "replay"

# lowest first: a module may import from its own layer and the layers before it
LAYERS = ("base", "script", "formats", "tree", "drivers", "engine", "session", "client", "heal", "suite", "mcp", "cli")
TOP_LEVEL = {"client": "client", "__main__": "cli"}  # the package's own modules; the rest are "base"

MAX_MODULE_LINES = 450
MAX_FUNCTION_LINES = 80
REASON = "on purpose"  # a longer function says why in a comment above it: "# Longer than … on purpose: …"


def modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def layer(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "base"
    if (PACKAGE / parts[1]).is_dir():
        return parts[1]
    return TOP_LEVEL.get(parts[1], "base")


def imports(module: str, path: Path, known: dict[str, Path]) -> Iterator[str]:
    """Every replay module ``module`` imports, at the top or inside a function, typing-only included."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, *([node.module] if node.module else [])])
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        yield from (n for n in names if n == "replay" or n.startswith("replay."))


def graph() -> dict[str, set[str]]:
    known = modules()
    return {m: {i for i in imports(m, p, known) if i in known and i != m} for m, p in known.items()}


def test_no_module_imports_from_a_layer_above_its_own() -> None:
    upward = [
        f"{m} ({layer(m)}) imports {i} ({layer(i)})"
        for m, targets in graph().items()
        for i in sorted(targets)
        if LAYERS.index(layer(i)) > LAYERS.index(layer(m))
    ]
    assert upward == []


def circles_in(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every circle of imports in ``edges`` (module → the modules it imports)."""
    circles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for i in sorted(edges[m]):
            if state.get(i) == 1:
                circles.append([*path[path.index(i) :], i])
            elif i not in state:
                visit(i, [*path, i])
        state[m] = 2

    for m in sorted(edges):
        if m not in state:
            visit(m, [m])
    return circles


def test_no_modules_import_each_other_in_a_circle() -> None:
    circles = circles_in(graph())
    # a package's __init__ importing its own modules is how a package reads; anything else is a circle
    assert [c for c in circles if not all(x == c[0] or x.startswith(c[0] + ".") for x in c)] == []


def test_the_scripts_import_each_other_in_no_circle() -> None:
    root = PACKAGE.parent / "scripts"  # its scripts, and the benchmarks package's modules by their dotted names
    named = lambda p: ".".join(p.relative_to(root).with_suffix("").parts).removesuffix(".__init__")  # noqa: E731
    scripts = {named(p): p for p in root.rglob("*.py")}
    edges: dict[str, set[str]] = {}
    for name, path in scripts.items():
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):  # at the top or inside a function
            if isinstance(node, ast.Import):
                found |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found |= {node.module, *(f"{node.module}.{a.name}" for a in node.names)}  # (a module of a package)
        edges[name] = {m for m in found if m in scripts and m != name}
    assert len(scripts) > 10 and circles_in(edges) == []


def test_no_module_is_longer_than_the_limit() -> None:
    long = {
        m: n for m, p in modules().items() if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


def test_no_function_is_longer_than_the_limit_without_a_written_reason() -> None:
    long = {}
    for m, path in modules().items():
        lines = path.read_text(encoding="utf-8").splitlines()
        for node in ast.walk(ast.parse("\n".join(lines))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                k = min([node.lineno] + [d.lineno for d in node.decorator_list]) - 2  # the line above it
                comment = []
                while k >= 0 and lines[k].strip().startswith("#"):
                    comment.append(lines[k])
                    k -= 1
                if length > MAX_FUNCTION_LINES and REASON not in " ".join(comment):
                    long[f"{m}.{node.name}"] = length
    assert long == {}


def test_the_platforms_are_named_in_one_declaration() -> None:
    named = [
        f"{m}:{node.lineno}"
        for m, path in modules().items()
        if m != "replay.platforms"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and node.value in ("web", "android")
    ]
    assert named == []


def test_the_environment_is_written_nowhere() -> None:
    writes = [
        f"{m}:{node.lineno}"
        for m, path in modules().items()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.ctx, ast.Store)
            and ast.unparse(node.value) == "os.environ"
        )
        or (
            isinstance(node, ast.Call)
            and ast.unparse(node.func) in ("os.environ.update", "os.environ.setdefault", "os.putenv")
        )
    ]
    assert writes == []


def test_the_tests_import_only_public_names_of_the_package() -> None:
    tests = PACKAGE.parent / "tests"
    private = [
        f"{path.relative_to(tests)}:{node.lineno} {alias.name}"
        for path in tests.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("replay")
        for alias in node.names
        if alias.name.startswith("_") and not alias.name.startswith("__")  # (a dunder is public: __version__)
    ]
    assert private == []
