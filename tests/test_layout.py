"""The package's layout is its architecture: numbers below words below the book, the facade on top.

:func:`check_layers` reads every import of a package tree from the source with :mod:`ast`: ``import``
and ``from ... import`` statements at module level, inside functions and under ``if TYPE_CHECKING``,
relative ones resolved against the importing module (``from . import report`` is ``goodput.report``),
and ``importlib.import_module("goodput....")`` or ``__import__`` calls with a string. A failure names
the file, the line and the import that breaks the rule. Two tests prove that it can fail, on a copy of
the package with a forbidden import written into it.

The heavy-import check imports every module below the book, lowest layer first, and fails on any
heavy library (SymPy, SciPy's submodules, pandas, matplotlib, IPython...) that a module loads when it
is imported without importing it at module level itself (or through a goodput module it imports at
module level); the numbers layer may load no display library at all.
"""

from __future__ import annotations

import ast
import functools
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "goodput"

#: The layers, lowest first; a module may import from its own layer and the ones below. The facade
#: (goodput/__init__.py, the public names) is the top: it may re-export anything, and nothing in the
#: package imports it (``import goodput.model`` runs it as the package's first step, which is allowed).
LAYERS = ("numbers", "words", "book", "facade")

#: Libraries too heavy to load without need (importing each costs 0.05 to 0.6 s).
HEAVY = (
    "numpy", "scipy", "scipy.special", "scipy.optimize", "scipy.integrate", "scipy.stats", "sympy", "mpmath",
    "pandas", "matplotlib", "yaml", "tqdm", "IPython", "ipykernel", "myst_nb", "sphinx", "docutils", "playwright",
)
#: Libraries for showing results, not computing them: no numbers module may load one when imported.
DISPLAY = ("matplotlib", "IPython", "ipykernel", "myst_nb", "sphinx", "docutils", "playwright")
#: What importing a library loads of HEAVY besides itself and its parents (measured; see the heavy test).
LOADS = {
    "scipy": ("numpy",),
    "scipy.optimize": ("scipy.special",),
    "scipy.stats": ("scipy.special", "scipy.optimize", "scipy.integrate"),
    "sympy": ("mpmath",),
    "pandas": ("numpy",),
    "matplotlib": ("numpy",),
}


def layer(module: str) -> str:
    """The layer of a goodput module: the facade (the package itself), book (goodput.book.*, the command),
    words (report, pages), else numbers."""
    _, _, rest = module.partition(".")
    if not rest:
        return "facade"
    if rest == "book" or rest.startswith("book.") or rest in ("cli", "__main__"):
        return "book"
    if rest == "report" or rest == "pages" or rest.startswith("pages."):
        return "words"
    return "numbers"


@dataclass(frozen=True)
class Import:
    """One import in one module: what it names, where, and whether it runs when the module is imported."""

    line: int
    target: str
    at_import: bool
    how: str


def modules(root: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package at ``root`` (a folder named after it), by dotted name."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _walk(node: ast.AST, at_import: bool = True) -> Iterator[tuple[ast.AST, bool]]:
    """Every node under ``node``, with whether it runs when the module is imported (not in a function or
    under ``if TYPE_CHECKING``)."""
    for child in ast.iter_child_nodes(node):
        runs = at_import and not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        yield child, runs
        if isinstance(child, ast.If) and _is_type_checking(child.test):
            for part in child.body:
                yield part, False
                yield from _walk(part, False)
            for part in child.orelse:
                yield part, runs
                yield from _walk(part, runs)
        else:
            yield from _walk(child, runs)


@functools.cache
def _nodes(source: str) -> list[tuple[ast.AST, bool]]:
    """The nodes of a module's source that can import, parsed once per source text (the package copies share them)."""
    return [(node, runs) for node, runs in _walk(ast.parse(source))
            if isinstance(node, ast.Import | ast.ImportFrom | ast.Call)]


def _import_call(node: ast.Call) -> tuple[str | None, str | None] | None:
    """For ``importlib.import_module(name, package)`` or ``__import__(name)``: (name, package) when they are
    strings (None where not); None for any other call."""
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if name not in ("import_module", "__import__"):
        return None
    args = list(node.args) + [k.value for k in node.keywords if k.arg in ("name", "package")]
    strings = [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None for a in args]
    if name == "__import__":
        return strings[0] if strings else None, None
    return (strings[0] if strings else None), (strings[1] if len(strings) > 1 else None)


def imports(module: str, path: Path, known: dict[str, Path]) -> list[Import]:
    """Every module ``module`` (at ``path``) imports: relative imports and import_module strings resolved.

    A target that is not a module of ``known`` is kept as written (a library); an import through a name
    the source does not spell out has the target ``?``.
    """
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]

    def absolute(name: str, level: int, anchor: str = package) -> str:
        if level == 0:
            return name
        parts = anchor.split(".")
        base = ".".join(parts[: len(parts) - (level - 1)])
        return f"{base}.{name}" if name else base

    found = []
    for node, at_import in _nodes(path.read_text(encoding="utf-8")):
        if isinstance(node, ast.Import):
            found += [Import(node.lineno, alias.name, at_import, "import") for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = absolute(node.module or "", node.level)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.append(Import(node.lineno, sub if sub in known else base, at_import, "from"))
        elif isinstance(node, ast.Call) and (call := _import_call(node)) is not None:
            name, anchor = call
            if name is None:
                found.append(Import(node.lineno, "?", at_import, "importlib"))
            else:
                level = len(name) - len(name.lstrip("."))
                found.append(Import(node.lineno, absolute(name.lstrip("."), level, anchor or package), at_import,
                                    "importlib"))
    return found


def _known(target: str, known: dict[str, Path]) -> str:
    """The module of the package ``target`` names (itself, or the longest prefix that is one)."""
    while target and target not in known:
        target = target.rpartition(".")[0]
    return target


def check_layers(root: Path = PACKAGE) -> list[str]:
    """Every import of the package at ``root`` that breaks the layers, as "file:line ... imports ..."."""
    known = modules(root)
    top = root.name
    broken = []
    for name, path in known.items():
        where = path.relative_to(root.parent)
        if layer(name) == "facade":
            continue
        for found in imports(name, path, known):
            if found.target == "?":
                broken.append(f"{where}:{found.line} imports a module named at run time ({found.how}); "
                              "spell the module out so that the layers can be checked")
                continue
            if found.target.split(".")[0] != top:
                continue
            target = _known(found.target, known)
            if target == top:
                broken.append(f"{where}:{found.line} ({layer(name)}) imports the facade {top} ({found.how}); "
                              "import the module that defines the name")
            elif target and LAYERS.index(layer(target)) > LAYERS.index(layer(name)):
                broken.append(f"{where}:{found.line} ({layer(name)}) imports {target} ({layer(target)}) "
                              f"({found.how})")
    return broken


def relative_imports(root: Path = PACKAGE) -> list[str]:
    """Every relative import in the package at ``root`` (ruff's TID252 bans them too)."""
    return [f"{path.relative_to(root.parent)}:{node.lineno}"
            for path in modules(root).values()
            for node, _ in _nodes(path.read_text(encoding="utf-8"))
            if isinstance(node, ast.ImportFrom) and node.level > 0]


def test_imports_run_from_the_facade_down_to_the_numbers() -> None:
    """No numbers module imports from words or the book, no words module from the book, nothing from the facade."""
    assert check_layers() == []


def test_the_package_has_no_relative_import() -> None:
    assert relative_imports() == []


@pytest.fixture(scope="module")
def _pristine_copy(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[Path, str]]:
    """One copy of the package's sources per module (copying it takes a tenth of a second), with each file's text."""
    copy = tmp_path_factory.mktemp("package") / PACKAGE.name
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy, {path: path.read_text(encoding="utf-8") for path in copy.rglob("*.py")}


@pytest.fixture
def package_copy(_pristine_copy: tuple[Path, dict[Path, str]]) -> Iterator[Path]:
    """A copy of the package's sources, to write a forbidden import into; put back as copied after the test."""
    copy, texts = _pristine_copy
    assert check_layers(copy) == []
    yield copy
    for path in copy.rglob("*"):
        if path.is_file() and path not in texts:
            path.unlink()
    for path, text in texts.items():
        if path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")


def test_the_check_fails_on_a_relative_import_of_words_inside_a_numbers_function(package_copy: Path) -> None:
    model = package_copy / "model.py"
    lines = model.read_text(encoding="utf-8").splitlines()
    line = len(lines) + 2
    model.write_text("\n".join([*lines, "", "def _helper():", "    from . import report", "    return report", ""]),
                     encoding="utf-8")
    assert check_layers(package_copy) == [f"goodput/model.py:{line + 1} (numbers) imports goodput.report (words) (from)"]
    assert relative_imports(package_copy) == [f"goodput/model.py:{line + 1}"]


def test_the_check_fails_on_importlib_loading_the_book_from_a_numbers_module(package_copy: Path) -> None:
    units = package_copy / "units.py"
    text = units.read_text(encoding="utf-8")
    units.write_text(text + '\nimport importlib\n_figures = importlib.import_module("goodput.book.figures")\n',
                     encoding="utf-8")
    line = len(text.splitlines()) + 3
    assert check_layers(package_copy) == [
        f"goodput/units.py:{line} (numbers) imports goodput.book.figures (book) (importlib)"]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from .. import report", None),  # a words module may import words
        ("from goodput.pages import common", None),
        ("from ..book import figures", "(words) imports goodput.book.figures (book) (from)"),
        ("from goodput import make_plan", "(words) imports the facade goodput (from); import the module that defines the name"),
        ("import goodput", "(words) imports the facade goodput (import); import the module that defines the name"),
        ("__import__('goodput.cli')", "(words) imports goodput.cli (book) (importlib)"),
        ("importlib.import_module('..cli', 'goodput.pages')", "(words) imports goodput.cli (book) (importlib)"),
        ("importlib.import_module(NAME)", ("imports a module named at run time (importlib); spell the module out "
                                           "so that the layers can be checked")),
    ],
)
def test_the_check_reads_every_form_of_import(package_copy: Path, source: str, expected: str | None) -> None:
    """Relative imports from a subpackage, the facade, import_module with a package, a name not spelled out."""
    page = package_copy / "pages" / "common.py"
    text = page.read_text(encoding="utf-8")
    page.write_text(f"{text}\n\ndef _late():\n    {source}\n", encoding="utf-8")
    line = len(text.splitlines()) + 4
    assert check_layers(package_copy) == ([] if expected is None else [f"goodput/pages/common.py:{line} {expected}"])


def test_every_module_has_a_layer_the_tree_shows() -> None:
    """Words live in report.py and pages/, the book in book/ and cli.py, the facade is __init__.py; else numbers."""
    names = modules()
    assert {layer(n) for n in names} == set(LAYERS)
    assert [n for n in names if layer(n) == "facade"] == ["goodput"]
    assert all(layer(n) == "book" for n in names if n.startswith("goodput.book"))


def _declared(known: dict[str, Path]) -> dict[str, set[str]]:
    """For each module, the libraries it imports when imported: its own, and those of the goodput modules it
    imports when imported, all the way down."""
    own: dict[str, set[str]] = {}
    deps: dict[str, set[str]] = {}
    for name, path in known.items():
        found = [i for i in imports(name, path, known) if i.at_import and i.target != "?"]
        own[name] = {i.target for i in found if i.target.split(".")[0] != "goodput"}
        # importing goodput.logs.read runs goodput/__init__.py and goodput/logs/__init__.py first
        deps[name] = {p for i in found if i.target.split(".")[0] == "goodput"
                      for t in [_known(i.target, known)]
                      for p in [".".join(t.split(".")[:k]) for k in range(1, t.count(".") + 2)]} - {name}
    closed: dict[str, set[str]] = {}

    def close(name: str, seen: frozenset[str] = frozenset()) -> set[str]:
        if name not in closed:
            libs = set(own[name])
            for dep in deps[name] - seen - {name}:
                libs |= close(dep, seen | {name})
            closed[name] = libs
        return closed[name]

    return {name: close(name) for name in known}


def allowed(libraries: set[str]) -> set[str]:
    """The heavy libraries importing ``libraries`` may load: each, its parent packages, and what it loads."""
    out = set()
    for library in libraries:
        parts = library.split(".")
        for k in range(1, len(parts) + 1):
            prefix = ".".join(parts[:k])
            out |= {prefix, *LOADS.get(prefix, ())}
            out |= {loaded for parent in LOADS.get(prefix, ()) for loaded in LOADS.get(parent, ())}
    return out & set(HEAVY)


#: Imports each module named on the command line in turn, and prints the heavy libraries each one loaded.
PROBE = """
import importlib, json, sys
heavy = {heavy!r}
loaded = {{}}
for name in sys.argv[1:]:
    before = {{h for h in heavy if h in sys.modules}}
    importlib.import_module(name)
    loaded[name] = sorted(h for h in heavy if h in sys.modules and h not in before)
print(json.dumps(loaded))
"""


def chains(allowances: dict[str, set[str]], order: list[str]) -> list[list[str]]:
    """The modules in runs, each run's allowances growing (each run in one interpreter, in ``order``).

    In a run where every module may load all that those before it may, a module cannot hide a heavy
    library behind one loaded before it by another: whatever was loaded before is allowed to it too.
    """
    groups: dict[frozenset[str], list[str]] = {}
    for name in order:
        groups.setdefault(frozenset(allowances[name]), []).append(name)
    runs: list[tuple[frozenset[str], list[str]]] = []
    for key in sorted(groups, key=lambda k: (len(k), sorted(k))):
        for i, (last, members) in enumerate(runs):
            if last <= key:
                runs[i] = (key, members + groups[key])
                break
        else:
            runs.append((key, list(groups[key])))
    # a run imports its modules dependencies first: their allowances are subsets, so they may come early
    position = {name: i for i, name in enumerate(order)}
    return [sorted(members, key=lambda n: (len(allowances[n]), position[n])) for _, members in runs]


def import_order(known: dict[str, Path]) -> list[str]:
    """The modules, each after the goodput modules it imports when imported (lowest layer first)."""
    deps = {name: {_known(i.target, known) for i in imports(name, path, known)
                   if i.at_import and i.target.split(".")[0] == "goodput"} - {name}
            for name, path in known.items()}
    done: list[str] = []

    def visit(name: str, stack: tuple[str, ...] = ()) -> None:
        if name in done or name in stack:
            return
        for dep in sorted(deps[name], key=lambda d: (LAYERS.index(layer(d)), d)):
            visit(dep, (*stack, name))
        done.append(name)

    for name in sorted(known, key=lambda n: (LAYERS.index(layer(n)), n)):
        visit(name)
    return done


def check_heavy(root: Path = PACKAGE, names: list[str] | None = None) -> list[str]:
    """The heavy libraries a module of the package at ``root`` loads when imported and should not.

    A module may load what it, or a goodput module it imports when imported, imports when imported
    (:func:`allowed`); a numbers module no display library at all. Each module is imported in an
    interpreter that has loaded only what that module may load itself: the modules (``names``, or all but
    the book's, which exists to draw and may load what it likes) run in a few interpreters side by side
    (see :func:`chains`), each importing its run one by one.
    """
    known = modules(root)
    allowances = {name: allowed(libs) for name, libs in _declared(known).items()}
    order = [name for name in import_order(known)
             if (names is None and layer(name) != "book") or (names is not None and name in names)]
    runs = chains(allowances, order)
    code = PROBE.format(heavy=HEAVY)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root.parent), os.environ.get("PYTHONPATH", "")])}

    def probe(run: list[str]) -> dict[str, list[str]]:
        out = subprocess.run([sys.executable, "-c", code, *run], capture_output=True, text=True, check=False,
                             cwd=root.parent, env=env)
        assert out.returncode == 0, out.stderr[-3000:]
        return dict(json.loads(out.stdout))

    with ThreadPoolExecutor(max_workers=len(runs)) as pool:
        loaded = {name: libs for result in pool.map(probe, runs) for name, libs in result.items()}
    assert set(loaded) == set(order)
    problems = [f"{name} loads {', '.join(sorted(set(libs) - allowances[name]))} when imported, "
                "without importing it at module level" for name, libs in loaded.items()
                if set(libs) - allowances[name]]
    problems += [f"{name} (numbers) loads {', '.join(sorted(set(libs) & set(DISPLAY)))} when imported"
                 for name, libs in loaded.items() if layer(name) == "numbers" and set(libs) & set(DISPLAY)]
    return problems


@pytest.mark.slow
def test_no_module_loads_a_heavy_library_it_does_not_import() -> None:
    """Every module loads, when imported, only the heavy libraries it imports itself (or through goodput modules
    it imports); the facade and goodput.params none; no numbers module a display library."""
    assert check_heavy() == []
    allowances = {name: allowed(libs) for name, libs in _declared(modules()).items()}
    assert allowances["goodput"] == set()
    assert not allowances["goodput.params"] & {"numpy", "yaml"}
    assert not allowances["goodput.plan"] & {"sympy", "pandas", "scipy.stats"}


def test_the_heavy_check_fails_on_a_library_loaded_out_of_sight(package_copy: Path) -> None:
    """units.py calling, when imported, a function that imports YAML, and a numbers module importing a display
    library (docutils) at module level, fail the heavy check (both libraries are quick to import)."""
    units = package_copy / "units.py"
    units.write_text(units.read_text(encoding="utf-8") + "\n\ndef _read():\n    import yaml\n\n\n_read()\n",
                     encoding="utf-8")
    errors = package_copy / "errors.py"
    errors.write_text(errors.read_text(encoding="utf-8") + "\nimport docutils\n", encoding="utf-8")
    assert check_heavy(package_copy, ["goodput.units", "goodput.errors"]) == [
        "goodput.units loads yaml when imported, without importing it at module level",
        "goodput.errors (numbers) loads docutils when imported",
    ]


def test_the_public_api_is_exported() -> None:
    """goodput's __all__ names resolve on first use, to the objects of their modules."""
    import goodput
    from goodput.plan import make_plan

    assert "make_plan" in goodput.__all__ and goodput.make_plan is make_plan
    for name in goodput.__all__:
        assert getattr(goodput, name) is not None, name
