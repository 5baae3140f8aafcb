"""Every error class of the package survives pickling with its message and attributes.

Errors cross process boundaries: a LangGraph Server worker or a multiprocessing pool
pickles the exception a task raised to hand it back. Python rebuilds an exception by
calling its class with ``args`` (the message alone), so a class whose ``__init__`` takes
other arguments (``QueryTooLongError(length, limit)``) failed in the parent with a
TypeError that hid the real error.
"""

from __future__ import annotations

import copy
import importlib
import pickle
import pkgutil
from collections.abc import Callable
from datetime import UTC, datetime

import pytest

import skill_retriever
from skill_retriever.components.install.errors import UnknownComponentError, UnknownNamesError
from skill_retriever.components.install.not_installable import NotInstallableError
from skill_retriever.components.install.settings import JSONWriteError
from skill_retriever.components.install.still_required import StillRequiredError
from skill_retriever.exceptions import (
    IndexLockedError,
    PowerIterationFailedConvergence,
    QueryTooLongError,
)
from skill_retriever.filters import ReversedWindowError
from skill_retriever.stores.server_auth import AuthSettingError
from skill_retriever.stores.server_errors import NotChromaAnswer, ServerAddressError
from skill_retriever.stores.server_trust import TrustSettingError
from skill_retriever.time_text import TimeTextError

#: One instance of each class whose ``__init__`` is its own, built as the package builds it.
_MADE: dict[type[BaseException], Callable[[], BaseException]] = {
    QueryTooLongError: lambda: QueryTooLongError(5000, 2000),
    NotChromaAnswer: lambda: NotChromaAnswer(200, "text/html", "<html>hello</html>"),
    PowerIterationFailedConvergence: lambda: PowerIterationFailedConvergence(100, 0.25),
    IndexLockedError: lambda: IndexLockedError("locked", "/tmp/idx", 4242, 1.5),
    TrustSettingError: lambda: TrustSettingError("CHROMA_SSL_VERIFY is 'maybe'", "give true or false"),
    AuthSettingError: lambda: AuthSettingError("CHROMA_CLIENT_AUTH_PROVIDER names nothing", "unset it"),
    ServerAddressError: lambda: ServerAddressError("the port is 0", "give 1-65535"),
    UnknownComponentError: lambda: UnknownComponentError("postgresql", ("a/postgresql", "b/postgresql")),
    UnknownNamesError: lambda: UnknownNamesError([("postgress", ["postgresql"]), ("redis", [])]),
    NotInstallableError: lambda: NotInstallableError("readme", ("doc:readme",), "readme is a document"),
    StillRequiredError: lambda: StillRequiredError(
        "a is required by b", {"a": ["b"]}, ["b"], ["b"], ["a"], {"a": "a", "b": "b"}
    ),
    ReversedWindowError: lambda: ReversedWindowError(datetime(2025, 2, 1, tzinfo=UTC), datetime(2025, 1, 1, tzinfo=UTC)),
    TimeTextError: lambda: TimeTextError("no zone 'XYZ'"),
    JSONWriteError: lambda: JSONWriteError(22, "a lone surrogate in 'x'", "/tmp/settings.json"),
}


def _error_classes() -> list[type[BaseException]]:
    """Every exception class defined in a module of the package."""
    found: dict[str, type[BaseException]] = {}
    for module_info in pkgutil.walk_packages(skill_retriever.__path__, "skill_retriever."):
        module = importlib.import_module(module_info.name)
        for value in vars(module).values():
            if (isinstance(value, type) and issubclass(value, BaseException)
                    and value.__module__.startswith("skill_retriever")):
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return [found[name] for name in sorted(found)]


_CLASSES = _error_classes()


def _instance(cls: type[BaseException]) -> BaseException:
    if cls in _MADE:
        return _MADE[cls]()
    own_init = any("__init__" in vars(k) for k in cls.__mro__ if k.__module__.startswith("skill_retriever"))
    assert not own_init, f"{cls.__qualname__} has its own __init__: add an instance of it to _MADE"
    return cls("what is wrong; what to do")


def _same(a: BaseException, b: BaseException) -> None:
    assert type(b) is type(a)
    assert str(b) == str(a)
    assert b.args == a.args
    assert vars(b) == vars(a)


def test_the_walk_finds_the_classes() -> None:
    assert QueryTooLongError in _CLASSES and UnknownNamesError in _CLASSES
    assert len(_CLASSES) > 30


@pytest.mark.parametrize("cls", _CLASSES, ids=lambda c: c.__qualname__)
def test_round_trips_through_pickle(cls: type[BaseException]) -> None:
    error = _instance(cls)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        _same(error, pickle.loads(pickle.dumps(error, protocol)))
    _same(error, copy.copy(error))
    _same(error, copy.deepcopy(error))


def test_attributes_and_worded_messages_survive() -> None:
    back = pickle.loads(pickle.dumps(QueryTooLongError(5000, 2000)))
    assert (back.length, back.limit) == (5000, 2000)
    assert "5,000 characters" in back.to_agent
    window = pickle.loads(pickle.dumps(_MADE[ReversedWindowError]()))
    assert "--since" in window.worded("--since", "--until")
    written = pickle.loads(pickle.dumps(_MADE[JSONWriteError]()))
    assert (written.errno, written.filename) == (22, "/tmp/settings.json")
    assert str(written) == "cannot write /tmp/settings.json: a lone surrogate in 'x'"
