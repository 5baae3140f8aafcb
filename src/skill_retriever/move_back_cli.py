"""``skill-retriever move-to-embedded``: the way back from ``move-to-server``
(``stores.embedded_moves``)."""

from __future__ import annotations

import argparse
from typing import Any

from skill_retriever.cliargs import (
    DEFAULT_INDEX_DIR,
    INDEX_DIR_DEFAULT,
    add_json_option,
    add_lock_wait_option,
    folder_named,
    lock_wait_of,
)
from skill_retriever.safety.terminal import printable, printable_json

__all__ = ["add_parser"]


def add_parser(sub: Any) -> None:
    me = sub.add_parser(
        "move-to-embedded",
        help="search an index in memory again instead of through its Chroma server (the way back from move-to-server)",
        description="Write index.json without its Chroma server: the index searches the vectors items.sqlite "
        "holds (all of them: nothing is copied, and the server need not answer). Its collections stay on the "
        "server unless --delete-collections is given.",
    )
    me.add_argument("--index-dir", default=DEFAULT_INDEX_DIR, type=folder_named,
                    help=f"the index to move ({INDEX_DIR_DEFAULT})")
    me.add_argument("--delete-collections", action="store_true",
                    help="afterwards delete the index's own collections from the server (never another index's)")
    add_json_option(me)
    add_lock_wait_option(me)
    me.set_defaults(handler=cmd_move_to_embedded)


def cmd_move_to_embedded(args: argparse.Namespace) -> int:
    from skill_retriever.json_text import dumps
    from skill_retriever.stores.embedded_moves import move_index_to_embedded

    moved = move_index_to_embedded(args.index_dir, delete_collections=args.delete_collections,
                                   lock_wait_s=lock_wait_of(args))
    for line in [printable_json(dumps(moved.to_dict()))] if args.json else map(printable, moved.lines()):
        print(line)
    return 0
