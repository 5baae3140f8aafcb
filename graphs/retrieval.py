"""The retrieval graph for LangGraph Server and Studio (``langgraph dev``; see langgraph.json).

The server builds a run's context from JSON, so this graph takes a small JSON context
(``index_dir``, ``rerank``, ``cross_encoder``: see ``ServerContext``), opens that index
(default: ``$SKILL_RETRIEVER_INDEX``, else the bundled sample catalogue, indexed into
``~/.cache/skill-retriever`` on first use) and runs the compiled retrieval graph from
``skill_retriever.graph`` as a subgraph. Input and output are the retrieval graph's own:
``{"query": ..., "k": ..., "token_budget": ..., "route": ..., "filters": {...}}`` in,
``{"results", "route", "reranker", "stats", "warnings"}`` out.

In Python, use ``skill_retriever.graph.graph`` directly with
``context=RetrievalContext(index=...)``.
"""

from skill_retriever.adapters.langgraph_server import build_server_graph

graph = build_server_graph(name="retrieval")
