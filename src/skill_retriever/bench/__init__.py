"""``skill-retriever benchmark``: quality beside the peers, speed and scale.

Needs the ``bench`` extra (``pip install 'skill-retriever[bench]'``: plots and process
memory). Where things are:

* ``cli`` -- the ``benchmark`` subcommand; ``runner`` -- runs the chosen sections in order.
* ``sections`` -- the registry: every section, whether ``--quick`` runs it, its function.
* ``common`` -- what a section receives: ``BenchOptions``, ``FIXED_NOW``, ``write_json`` and
  the typed ``BenchRun`` (shared model, reranker, retrievers, the incident world's index).
* Sections: ``battery`` (the seed battery), ``incidents``, ``retrieval_sets`` (multihop,
  skills, toolret), ``speed``, ``million_edges`` (scale; also a command of its own).
* Their parts: ``world`` and ``world_queries`` (the incident world), ``datasets`` (data sets
  and cached indexes), ``methods`` (ours and the peers), ``evaluate`` and ``metrics``,
  ``embedding`` (memo and replay embedders), ``growth`` and ``timing`` (speed).
* Output: ``report`` (report.md and report.json), ``tables``, ``plots``.
* Environment: ``machine`` (threads, machine, code version), ``extras`` (the bench extra).
* Before/after checks of a change, commands of their own: ``ingest_hashes`` (what ingest
  stores), ``query_windows`` (the time windows read in every benchmark query).
"""
