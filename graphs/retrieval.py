"""The retrieval graph for LangGraph Server and Studio (``langgraph dev``; see langgraph.json).

The server builds a run's context from JSON, so this graph takes a small JSON context
(``index_dir``, ``rerank``, ``cross_encoder``: see ``ServerContext``), opens that index
(default: ``$SKILL_RETRIEVER_INDEX``, else the bundled sample catalogue, indexed into
``~/.cache/skill-retriever`` on first use) and runs the compiled retrieval graph from
``skill_retriever.graph`` as a subgraph. Input and output are the retrieval graph's own
but ``query_vector`` (the server searches through ``Retriever``, which takes none):
``{"query": ..., "k": ..., "token_budget": ..., "route": ..., "filters": {...}}`` in,
``{"results", "route_taken", "reranker", "stats", "warnings", "fit"}`` out. Every run searches as
``$SKILL_RETRIEVER_PRINCIPALS`` (unset: public items only); a run's
``filters.principals`` can only narrow that.

At import (the server's start-up) the default index and the model are loaded in the
background (``SKILL_RETRIEVER_WARM_UP=0`` turns that off).

In Python, use ``skill_retriever.graph.graph`` directly with
``context=RetrievalContext(index=...)``.
"""

import os

from skill_retriever.adapters.langgraph_server import build_server_graph, warm_up_in_background

graph = build_server_graph(name="retrieval")
if os.environ.get("SKILL_RETRIEVER_WARM_UP", "1") != "0":
    # The server imports this module at start-up: load the model and the default index
    # now, in the background, so the first run is as fast as later ones.
    warm_up_in_background()
