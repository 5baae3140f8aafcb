"""A small multi-hop passage corpus: the film shot around Leland, North Carolina, and who
directed it (Stephen King, a passage with no word of the question, reached from the film's)."""

from __future__ import annotations

LELAND = [
    {"idx": 0, "title": "Leland, North Carolina",
     "text": "Leland is a town in Brunswick County. The film Maximum Overdrive was shot in or "
             "around Leland, North Carolina in 1986."},
    {"idx": 1, "title": "Maximum Overdrive",
     "text": "Maximum Overdrive is a 1986 American science fiction horror film written and directed "
             "by Stephen King."},
    {"idx": 2, "title": "Stephen King",
     "text": "Stephen King is an American author of horror novels and short stories."},
    {"idx": 3, "title": "Brunswick County, North Carolina",
     "text": "Brunswick County is a county in the state of North Carolina, on the Atlantic coast."},
]  # fmt: skip
#: A distractor: another town of the state, with film studios.
WILMINGTON = {"idx": 4, "title": "Wilmington, North Carolina",
              "text": "Wilmington is a port city in North Carolina with film studios."}
LELAND_QUERY = "Who directed the film that was shot in or around Leland, North Carolina in 1986"
