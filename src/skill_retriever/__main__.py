"""``python -m skill_retriever``: the ``skill-retriever`` command where its console script is not
on ``PATH`` (a venv not activated, ``pipx run``, a notebook's ``!python -m``). It goes through the
console script's own entry (`entry.main`), so Ctrl-C and SIGTERM are said the same way from the
first moment."""

from skill_retriever.entry import main

if __name__ == "__main__":  # imported (a walk of the package's modules), it runs nothing
    raise SystemExit(main())
