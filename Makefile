# Set-up and everyday targets. `make test` builds .venv from nothing when it is missing.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Single-threaded BLAS: on 2 cores numpy's and torch's pools fight (see README, Threading).
export OPENBLAS_NUM_THREADS ?= 1
export HF_HUB_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false

.PHONY: install demo test lint test-full bench bench-quick clean

install: $(VENV)/.installed

# torch is pinned first, alone: 2.13.0 is the CPU build on this machine's disk, and an
# unpinned torch pulled in by sentence-transformers would fetch a multi-GB CUDA build.
$(VENV)/.installed: pyproject.toml
	test -d $(VENV) || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -e '.[dev,bench,fast]'
	touch $@

demo: install
	rm -rf .demo-index
	$(BIN)/skill-retriever index --sample --index-dir .demo-index
	$(BIN)/skill-retriever query "set up a postgres migration check before deploy" --index-dir .demo-index -k 8

test: install
	$(BIN)/python -m pytest -q

# ruff and mypy --strict, with the versions pinned in the dev extra.
lint: install
	$(BIN)/ruff check src tests
	$(BIN)/mypy src

clean:
	rm -rf $(VENV) .demo-index .pytest_cache
