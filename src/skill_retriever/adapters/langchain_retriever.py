"""The LangChain retriever over an index, :class:`SkillRetriever` (re-exported by
``adapters.langchain``): ``invoke``/``ainvoke`` return ``Document``\\ s whose text is the
item's full text and whose metadata carries the evidence (`langchain_search.to_document`).
Its fields are checked in one line each (`constructor_errors`), when built and when set."""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Any, ClassVar, Self

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import Runnable, RunnableConfig, RunnableSerializable
from langchain_core.runnables.configurable import RunnableConfigurableFields
from langchain_core.runnables.utils import AnyConfigurableField
from pydantic import (
    ConfigDict,
    Field,
    PrivateAttr,
    StrictBool,
    StrictInt,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from skill_retriever.adapters.constructor_errors import constructor_message
from skill_retriever.adapters.langchain_search import (
    asearch_with_snapshot,
    caller_visibility,
    documents_of,
    search_with_snapshot,
    without_own_arguments,
)
from skill_retriever.adapters.search_skills_input import KindNames
from skill_retriever.components.view import CallerView
from skill_retriever.config import RetrievalConfig, Route
from skill_retriever.entry_k import entry_k
from skill_retriever.exceptions import ConfigError, RetrieverClosedError
from skill_retriever.filters import Filters
from skill_retriever.open_handle import OpenHandle
from skill_retriever.retriever import Retriever
from skill_retriever.retriever_args import names
from skill_retriever.stores.index import Index
from skill_retriever.stores.snapshot import IndexSnapshot

__all__ = ["SkillRetriever"]


class _Default(Enum):
    """A reranker left out: the Retriever's default one. An Enum member: a copy of it is
    itself (so ``is`` still finds it in a copied retriever), and its repr reads as words,
    not ``<object object at 0x...>``."""

    RERANKER = "default"

    def __repr__(self) -> str:
        return "<the default reranker>"


_DEFAULT: Any = _Default.RERANKER


class SkillRetriever(OpenHandle, BaseRetriever):
    """LangChain retriever over a skill-retriever :class:`Index`.

    Example:
        ``SkillRetriever(index=Index.open(".skill-retriever"), k=5).invoke("add tracing")``

    Per call, ``invoke(query, k=..., token_budget=..., route=..., kinds=[...],
    filters={...}, budget_fill=..., **RetrievalConfig overrides)`` overrides the fields
    below (``k=None`` is the retriever's own k; ``budget=``, ``Retriever.search``'s name,
    is read as ``token_budget=``;
    ``query=``, ``run_config=`` and ``snapshot=`` are refused: the retriever passes them
    itself). A field set later (``r.k = 7``) is checked as the constructor checks it.
    (``model_copy(update=...)`` is pydantic's unchecked copy, and is not.)

    ``configurable_fields`` works as LangChain's; the retriever it makes at each call
    searches with this one's `Retriever` (its answer cache and reranker), unless the call
    sets ``index``, ``config`` or ``reranker``.

    Close it when done, with ``close()`` or a ``with`` block, as a `Retriever`: it lets go
    of the `Retriever` it built for itself (the default cross-encoder that one loads, its
    answer cache), never of the index, a reranker passed in, or the `Retriever` given to
    `from_retriever`, which stay the caller's.
    """

    # An argument it does not know is refused, not ignored: ``principals=["ops"]`` (that is
    # ``filters={"principals": [...]}``) or ``top_k=`` must not quietly search otherwise.
    # validate_assignment: ``r.k = "7"`` is refused there, not at the next search.
    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid", validate_assignment=True)

    # Counts strict, as ``invoke`` takes them: k="5" or k=True refused, not read as 5 or 1.
    index: Index
    """The index to search."""
    k: StrictInt = Field(default=4, gt=0)
    """How many documents to return (at most); left out, ``config``'s k where it sets one
    (other than its default 10), else 4."""
    token_budget: Annotated[StrictInt, Field(ge=0)] | None = None
    """Drop the lowest-ranked documents until their token counts fit; None = no budget."""
    budget_fill: StrictBool = False
    """With a token budget, fill it with lower-ranked documents that fit instead of stopping
    at the first that does not (what the budget's warning advises); False = as ``config``
    says (by default, no filling)."""
    route: Route | None = None
    """Force a route (smart, ppr, quick); None = chosen by the query's complexity."""
    kinds: KindNames = None
    """Only these item kinds (skill, agent, command, hook, mcp_server, tool, ...); one alone
    may be a string."""
    filters: dict[str, Any] = Field(default_factory=dict)
    """Further filters: tags, principals, since, until (see ``skill_retriever.filters``)."""
    config: RetrievalConfig | None = None
    """Default settings of the retrieval; None = ``RetrievalConfig()``."""
    reranker: Any = _DEFAULT
    """A ``Reranker``, None for no reranking, or left out for the default."""

    # Pickle and deepcopy are refused in words (`OpenHandle`, first: pydantic's deepcopy
    # reached the index's lock); copy.copy and model_copy stay pydantic's (`OpenHandle.__copy__`).
    _reopen: ClassVar[str] = "SkillRetriever(index=Index.open(path))"

    _engine: Retriever | None = PrivateAttr(default=None)
    _own_engine: bool = PrivateAttr(default=False)  # built by `engine`, not given: closed with this
    _closed: bool = PrivateAttr(default=False)

    def __init__(self, **data: Any) -> None:
        """Raises: ConfigError: A bad argument, in one line (`constructor_message`)."""
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise ConfigError(constructor_message("SkillRetriever", exc, type(self).model_fields, data)) from None

    def __setattr__(self, name: str, value: Any) -> None:
        """Raises: ConfigError: A bad value for a field, in the constructor's words."""
        try:
            super().__setattr__(name, value)
        except ValidationError as exc:
            raise ConfigError(constructor_message("SkillRetriever", exc, type(self).model_fields, {name: value})) from None
        if name in ("index", "config", "reranker"):
            self._engine = None  # built from them: the next search builds it anew

    @model_validator(mode="before")
    @classmethod
    def _k_of_config(cls, data: Any) -> Any:
        # A k the config sets, none passed: the caller's choice, which the default 4 dropped (`entry_k`).
        if isinstance(data, dict) and "k" not in data and isinstance(config := data.get("config"), RetrievalConfig):
            return {**data, "k": entry_k(config, cls.model_fields["k"].default)}
        return data

    @field_validator("kinds")
    @classmethod
    def _kinds_not_empty(cls, kinds: list[str] | None) -> list[str] | None:
        if kinds == []:  # the search refused it at every call, in words without the class
            raise ValueError("kinds is empty, so nothing could match; leave it out for every kind")
        return kinds

    @field_validator("filters")
    @classmethod
    def _filters_checked(cls, filters: dict[str, Any], info: ValidationInfo) -> dict[str, Any]:
        Filters.from_spec(filters)  # a bad filter is refused here, not at the first search
        if (kinds := info.data.get("kinds")) is not None:  # two kinds: refused, as search refuses them
            names(kinds, "kinds", beside=filters)
        return filters

    @classmethod
    def from_retriever(cls, retriever: Retriever, **kwargs: Any) -> SkillRetriever:
        """Wrap an existing :class:`Retriever` facade (shares its index, config, reranker)."""
        new = cls(index=retriever.index, config=retriever.config, **kwargs)
        new._engine = retriever
        return new

    @property
    def engine(self) -> Retriever:
        """The `Retriever` it searches with: the one given to `from_retriever`, else its own,
        built at first use from ``index``, ``config`` and ``reranker``.

        Raises:
            RetrieverClosedError: This retriever was closed.
        """
        if self._closed:
            raise RetrieverClosedError(
                "this SkillRetriever was closed; make a new one: "
                f"SkillRetriever(index=index), the index at {self.index.path} open"
            )
        # A copy (model_copy) shares the engine its original built: one the original
        # closed since is built anew for the copy, which was not closed.
        if self._engine is None or (self._own_engine and self._engine.closed):
            if self.reranker is _DEFAULT:
                self._engine = Retriever(self.index, self.config)
            else:
                self._engine = Retriever(self.index, self.config, self.reranker)
            self._own_engine = True
        return self._engine

    def configurable_fields(self, **kwargs: AnyConfigurableField) -> RunnableSerializable[str, list[Document]]:
        """LangChain's `configurable_fields`, whose copies search with this retriever's
        `Retriever` (`_SharedEngineFields`)."""
        made = super().configurable_fields(**kwargs)  # refuses a name that is no field
        if isinstance(made, RunnableConfigurableFields):
            return _SharedEngineFields(default=self, fields=made.fields)
        return made

    def _search_as(self, original: SkillRetriever) -> None:
        """Search with ``original``'s `Retriever` (its own or the one given to
        `from_retriever`) when built from the same index, config and reranker: a copy
        LangChain made of it. Neither closes it for the other (``_own_engine`` False).

        Raises:
            RetrieverClosedError: ``original`` was closed.
        """
        if self.index is original.index and self.config is original.config and self.reranker is original.reranker:
            self._engine, self._own_engine = original.engine, False

    def close(self) -> None:
        """Let go of the `Retriever` it built for itself (`Retriever.close`: the default
        cross-encoder, the answer cache); the index, a reranker passed in and a `Retriever`
        given to `from_retriever` are the caller's and stay open. Closing again does
        nothing; a search after it raises `RetrieverClosedError`."""
        self._closed = True
        engine, self._engine = self._engine, None
        if engine is not None and self._own_engine:
            engine.close()

    def __enter__(self) -> Self:
        self.engine  # noqa: B018 - refuses a closed retriever here, as Retriever's with does
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _call_args(self, given: dict[str, Any]) -> dict[str, Any]:
        # Retriever.search's own arguments given here collided with the ones this retriever
        # passes (a TypeError from inside): budget= is read as token_budget=, the rest refused.
        kwargs = without_own_arguments(given, "SkillRetriever.invoke")
        call_filters = kwargs.pop("filters", None) or {}
        own_filters = dict(self.filters)
        # A call's kinds, as kinds= or in its filters, replaces the retriever's own (its
        # field and its filters' alike), as its k= replaces k: the search refuses two
        # different ones in one call, which only the call itself can give.
        kinds = self.kinds
        if "kinds" in kwargs or "kinds" in call_filters:
            kinds, _ = kwargs.pop("kinds", None), own_filters.pop("kinds", None)
        if "principals" in kwargs:
            own_filters.pop("principals", None)
        # k=None is the retriever's own k, as a null k is the tool's default: the field
        # refuses None, and Retriever.search read it as RetrievalConfig's k (10 for k=2).
        k = kwargs.pop("k", None)
        args: dict[str, Any] = {
            "k": self.k if k is None else k,
            "token_budget": kwargs.pop("token_budget", self.token_budget),
            "route": kwargs.pop("route", self.route),
            "kinds": kinds,
            "filters": {**own_filters, **call_filters},
        }
        if self.budget_fill and "budget_fill" not in kwargs:  # False leaves it to the config
            args["budget_fill"] = True
        return {**args, **kwargs}

    def _view(self, snapshot: IndexSnapshot, args: dict[str, Any]) -> CallerView:
        """What this search's caller may see of ``snapshot`` (its principals, resolved as the
        search resolves them): a document's ``reason`` names nothing else."""
        return CallerView(snapshot, caller_visibility(self.engine, args).principals)

    # The query positional-only (LangChain passes it so): a query= among invoke's arguments
    # then reaches _call_args, which says what is wrong, not a TypeError from LangChain.
    def _get_relevant_documents(  # type: ignore[override]
        self, query: str, /, *, run_manager: CallbackManagerForRetrieverRun, **kwargs: Any
    ) -> list[Document]:
        args = self._call_args(kwargs)
        response, snapshot = search_with_snapshot(
            self.engine, query, config={"callbacks": run_manager.get_child()}, **args
        )
        return documents_of(response, snapshot, query=query, view=self._view(snapshot, args))

    async def _aget_relevant_documents(  # type: ignore[override]
        self, query: str, /, *, run_manager: AsyncCallbackManagerForRetrieverRun, **kwargs: Any
    ) -> list[Document]:
        args = self._call_args(kwargs)
        response, snapshot = await asearch_with_snapshot(
            self.engine, query, config={"callbacks": run_manager.get_child()}, **args
        )
        return documents_of(response, snapshot, query=query, view=self._view(snapshot, args))


class _SharedEngineFields(RunnableConfigurableFields[str, list[Document]]):
    """`RunnableConfigurableFields` over a `SkillRetriever`: at each call that sets a
    configurable value LangChain makes a new one from its fields (``default.__class__(
    **fields)``; private attributes are not copied), which built a `Retriever` of its own:
    an empty answer cache and the default cross-encoder loaded again, every call (never
    closed), and not the `Retriever` given to `from_retriever`. The copy searches with the
    original's instead, unless the call set its index, config or reranker."""

    @classmethod
    def lc_id(cls) -> list[str]:
        """Serialized as LangChain's own class (a loader knows no other)."""
        return RunnableConfigurableFields.lc_id()

    def _prepare(self, config: RunnableConfig | None = None) -> tuple[Runnable[str, list[Document]], RunnableConfig]:
        runnable, prepared = super()._prepare(config)
        if runnable is not self.default and isinstance(runnable, SkillRetriever) and isinstance(
                self.default, SkillRetriever):
            runnable._search_as(self.default)
        return runnable, prepared
