"""The import rules of docs/architecture.md, read from the source with `ast`: no module imports itself back
through others (lazy imports inside functions count: they hide a cycle, they do not remove it), the apps'
arrows point one way (chat → suggestions → plans → goals → assets → zeus; only demo and bench may import
chat), no module reaches into another module's private (`_name`) names, and none is over 400 lines. The
tests' own modules are held to the cycle, private-name and size rules too."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("zeus", "assets", "goals", "plans", "suggestions", "chat", "demo", "bench")
# Lower index = lower layer. An app may import its own layer and any layer below, never one above.
LAYERS = ("zeus", "assets", "goals", "plans", "suggestions", "chat")
DRIVERS = ("demo", "bench")  # they drive the whole product, so they may import any app
# The project's wiring mounts every app's URLs and consumers: it sits above all of them.
WIRING = ("zeus.asgi", "zeus.urls", "zeus.settings", "zeus.celery")
# Uses waiting on a change in flight elsewhere (the reminders job's batching is being reworked in plans/jobs.py);
# the test below fails once one is gone, so the list only shrinks.
PENDING_PRIVATE_USES: set[str] = set()


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                found[_module_name(path)] = path
    return found


def _resolve(module: str, node: ast.ImportFrom, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base[: len(base) - node.level + (1 if is_package else 0)]
    return ".".join([*base, node.module] if node.module else base)


def imports_of(module: str, path: Path, modules: dict[str, Path]) -> list[tuple[str, set[str]]]:
    """(imported project module, names taken from it) for every import in the file, at any depth."""
    tree = ast.parse(path.read_text(), filename=str(path))
    is_package = path.name == "__init__.py"
    roots = {name.split(".")[0] for name in modules}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules:
                    out.append((alias.name, set()))
        elif isinstance(node, ast.ImportFrom):
            source = _resolve(module, node, is_package)
            if source.split(".")[0] not in roots:
                continue
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                if submodule in modules:
                    out.append((submodule, set()))
                elif source in modules:
                    out.append((source, {alias.name}))
    return out


def import_graph(modules: dict[str, Path] | None = None) -> dict[str, set[str]]:
    modules = project_modules() if modules is None else modules
    return {
        module: {target for target, _ in imports_of(module, path, modules) if target != module}
        for module, path in modules.items()
    }


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a path that returns to its start, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_cycle_finder_finds_a_cycle_through_three_modules():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}

    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_module_imports_itself_back():
    cycle = find_cycle(import_graph({**project_modules(), **suite_modules()}))

    assert cycle is None, "import cycle: " + " → ".join(cycle)


def test_the_apps_import_only_downward():
    wrong = []
    for module, targets in import_graph().items():
        app = module.split(".")[0]
        for target in targets:
            other = target.split(".")[0]
            if app in DRIVERS or other == app or module.startswith(WIRING):
                continue
            if other in DRIVERS or LAYERS.index(other) > LAYERS.index(app):
                wrong.append(f"{module} → {target}")

    assert wrong == []


def _private_attribute_uses(path: Path, imported_modules: set[str]) -> list[str]:
    """`module._name` where `module` is a project module imported under that name (`import chat.limits as
    limits`, `from chat import limits`)."""
    tree = ast.parse(path.read_text())
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                if f"{node.module}.{alias.name}" in imported_modules:
                    aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname and alias.name in imported_modules:
                    aliases[alias.asname] = alias.name
    return [
        f"{aliases[node.value.id]}.{node.attr}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in aliases
        and node.attr.startswith("_")
        and not node.attr.startswith("__")
    ]


def suite_modules() -> dict[str, Path]:
    """The test suite's own modules (tests/), held to the same rules as the project's."""
    return {_module_name(path): path for path in sorted((ROOT / "tests").rglob("*.py"))}


def private_name_uses() -> list[str]:
    """Every use of another module's `_name`, in the project and in its tests (a test module's too)."""
    sources = {**project_modules(), **suite_modules()}
    uses = []
    for module, path in sources.items():
        for target, names in imports_of(module, path, sources):
            uses += [f"{module}: from {target} import {n}" for n in sorted(names) if n.startswith("_")]
        uses += [f"{module}: {use}" for use in _private_attribute_uses(path, set(sources))]
    return uses


def test_no_module_uses_another_modules_private_names():
    uses = private_name_uses()

    assert [use for use in uses if use not in PENDING_PRIVATE_USES] == []
    assert set(uses) >= PENDING_PRIVATE_USES, "a pending use is gone: drop it from PENDING_PRIVATE_USES"


def test_no_module_is_over_400_lines():
    """The house rule: a module that outgrows 400 lines holds more than one thing; split it by what it
    holds. The tests and the bench are held to it too; migrations are generated."""
    modules = {**project_modules(), **suite_modules()}  # the apps, demo and bench, and the tests
    longer = {name: lines for name, path in modules.items() if (lines := len(path.read_text().splitlines())) > 400}
    assert not longer, f"over 400 lines: {longer}"
