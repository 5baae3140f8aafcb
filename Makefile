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

# torch is pinned first, alone: an unpinned torch pulled in by sentence-transformers would
# fetch a multi-GB CUDA build. On this project's machines pip's own index holds 2.13.0 as
# the CPU build; elsewhere PyPI's 2.13.0 is the CUDA one, so give PyTorch's CPU index:
#   make demo TORCH_INDEX=https://download.pytorch.org/whl/cpu
TORCH_INDEX ?=
$(VENV)/.installed: pyproject.toml
	test -d $(VENV) || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q torch==2.13.0 $(if $(TORCH_INDEX),--index-url $(TORCH_INDEX))
	$(BIN)/pip install -q -e '.[dev,bench,fast]'
	touch $@

demo: install
	rm -rf .demo-index
	$(BIN)/skill-retriever index --sample --index-dir .demo-index
	$(BIN)/skill-retriever query "set up a postgres migration check before deploy" --index-dir .demo-index -k 8

test: install
	$(BIN)/python -m pytest -q

# The whole suite with the Hypothesis "full" profile: over 10,000 generated inputs for the
# query path and every ingestion source (README, Fuzzing; `make test` runs the "ci" profile).
test-full: install
	HYPOTHESIS_PROFILE=full $(BIN)/python -m pytest -q

# The benchmark reads its datasets from $$SKILL_RETRIEVER_DATA, else ../shared/data when it
# exists; without them the skills, toolret and multihop sections are skipped. Give the
# folder as `make bench-quick SKILL_RETRIEVER_DATA=/path/to/data` (make passes a variable
# set on its command line to the recipe's environment).

# What CI runs after the tests: small subsets, no 1M-edge scale section; report.md and
# plots/ in bench-out/quick.
bench-quick: install
	$(BIN)/skill-retriever benchmark --quick --out bench-out/quick

# Every section on the full sets, the 100k-node / 1M-edge scale run included (over an hour
# on 2 cores: scale's index build alone took 30 minutes); report.md and plots/ in bench-out/full.
bench: install
	$(BIN)/skill-retriever benchmark --out bench-out/full

# ruff and mypy --strict, with the versions pinned in the dev extra.
lint: install
	$(BIN)/ruff check src tests graphs
	$(BIN)/mypy src

clean:
	rm -rf $(VENV) .demo-index .pytest_cache
