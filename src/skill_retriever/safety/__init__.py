"""Safety checks on retrieved text: items that look like instructions to the model."""

from skill_retriever.safety.injection import scan_node, scan_text

__all__ = ["scan_node", "scan_text"]
