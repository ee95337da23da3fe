# The two commands users need: `make book` and `make test`; `make pdf` prints the book to one PDF.
# Both create .venv if missing and install the package (editable) with the pinned book stack.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
# GOODPUT_PARAMS reaches the recipes as given: a file name with spaces or a '$' is one path, not split or
# expanded by make ($(value ...) keeps it literal). PARAMS_ABS then makes a relative one absolute in the shell,
# taken from where make runs, not from book/.
ifdef GOODPUT_PARAMS
override GOODPUT_PARAMS := $(value GOODPUT_PARAMS)
export GOODPUT_PARAMS
endif
PARAMS_ABS = if [ -n "$${GOODPUT_PARAMS-}" ]; then case "$$GOODPUT_PARAMS" in /*) ;; *) GOODPUT_PARAMS="$$PWD/$$GOODPUT_PARAMS" ;; esac; export GOODPUT_PARAMS; fi

.PHONY: book pdf test test-fast lint bench clean

$(STAMP): pyproject.toml constraints.txt
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "goodput needs Python 3.11 or newer; set PYTHON=python3.11")'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e ".[book,test,dev]"
	touch $(STAMP)

# The inputs are checked first (the one line `goodput plan` prints, and no build), and the book is built from
# clean into _build/next: the last good _build is replaced only once the new one has built.
book: $(STAMP)  ## build the HTML book from clean into _build/html
	@$(PARAMS_ABS); $(BIN)/goodput plan --params "$${GOODPUT_PARAMS:-book/params.yml}" > /dev/null
	rm -rf _build/next _build.new
	@$(PARAMS_ABS); set -x; $(BIN)/jupyter-book build . --path-output _build/next -W -n --keep-going
	mv _build/next/_build _build.new && rm -rf _build && mv _build.new _build
	@echo "The book is at $(CURDIR)/_build/html/index.html"

# The whole book as one PDF, printed by Debian's Chromium (checked first, before any install).
pdf:  ## build the book from clean as one page and print it to _build/pdf/goodput.pdf
	@$(PYTHON) _ext/make_pdf.py --check-browser
	@$(MAKE) --no-print-directory $(STAMP)
	@$(PARAMS_ABS); $(BIN)/goodput plan --params "$${GOODPUT_PARAMS:-book/params.yml}" > /dev/null
	@$(PARAMS_ABS); set -x; $(BIN)/python _ext/make_pdf.py

test: $(STAMP)  ## run the whole test suite, including a clean build of the book
	$(BIN)/python -m pytest

test-fast: $(STAMP)  ## the quick unit tests, on every core: no book, browser, wheel or slow test; 20 examples a property; compiled files kept (even where PYTHONDONTWRITEBYTECODE is set) so a second run skips recompiling
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n auto --dist loadscope --hypothesis-profile=fast -m "not book and not browser and not packaging and not pdf and not slow"

lint: $(STAMP)  ## ruff and mypy on the package, the tests, the extensions and the chapters (through jupytext)
	$(BIN)/ruff check goodput tests benchmarks _ext
	$(BIN)/mypy
	rm -rf _build/lint && mkdir -p _build/lint
	for f in book/*.md; do $(BIN)/jupytext --quiet --to py:percent -o _build/lint/$$(basename $$f .md).py $$f || exit 1; done
	$(BIN)/ruff check --config pyproject.toml --extend-ignore D,E402 _build/lint

bench: $(STAMP)  ## benchmarks: ratios measured side by side in one run
	for script in benchmarks/*.py; do $(BIN)/python $$script || exit 1; done

clean:
	rm -rf _build .pytest_cache .hypothesis .ruff_cache .mypy_cache
