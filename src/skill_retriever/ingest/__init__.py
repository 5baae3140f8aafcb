"""Sources -> nodes and edges. Each source reports per-file problems instead of aborting."""
