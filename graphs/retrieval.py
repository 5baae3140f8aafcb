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
``filters.principals`` can only narrow that. Settings in the run's ``config["configurable"]``
(where LangGraph Platform keeps an assistant's) apply as the compiled graph reads them, bounded
as a run's ``profile`` is (``adapters/server_configurable.py``).

At import (the server's start-up) the default index and the model are loaded in the
background (``SKILL_RETRIEVER_WARM_UP`` set to 0, false, no or off, in any case, turns that
off; a value that is no such word, nor 1, true, yes or on, is refused at start-up).

In Python, use ``skill_retriever.graph.graph`` directly with
``context=RetrievalContext(index=...)``.
"""

import os

from skill_retriever.adapters.langgraph_server import build_server_graph, warm_up_in_background
from skill_retriever.adapters.warm_up_env import WARM_UP_ENV, warm_up_wanted

warm_up = warm_up_wanted(os.environ.get(WARM_UP_ENV))  # a bad value stops the start here, said in one line
graph = build_server_graph(name="retrieval")
if warm_up:
    # The server imports this module at start-up: load the model and the default index
    # now, in the background, so the first run is as fast as later ones.
    warm_up_in_background()
