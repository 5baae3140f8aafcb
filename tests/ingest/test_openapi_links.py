"""Producer-consumer links between REST operations (ingest.openapi_links)."""

from __future__ import annotations

from skill_retriever.ingest.openapi_links import operation_links, parameter_resource
from skill_retriever.model import EdgeKind

OPERATIONS = {
    "search": ("GET", "/search"),
    "me": ("GET", "/me"),
    "my-playlists": ("GET", "/me/playlists"),
    "user-playlists": ("GET", "/users/{user_id}/playlists"),
    "add-tracks": ("POST", "/playlists/{playlist_id}/tracks"),
    "album": ("GET", "/albums/{id}"),
    "categories": ("GET", "/browse/categories"),
    "category": ("GET", "/browse/categories/{categoryId}"),
    "create-playlist": ("POST", "/users/{user_id}/playlists"),
}


def _links() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for edge in operation_links(OPERATIONS):
        assert edge.kind is EdgeKind.DEPENDS_ON
        out.setdefault(edge.source, set()).add(edge.target)
    return out


def test_the_resource_a_path_parameter_names() -> None:
    assert parameter_resource(["playlists", "{playlist_id}", "tracks"], 1) == "playlist"
    assert parameter_resource(["browse", "categories", "{categoryId}"], 2) == "category"
    assert parameter_resource(["albums", "{id}"], 1) == "album"  # named by the segment before it
    assert parameter_resource(["{id}"], 0) is None  # nothing names it
    assert parameter_resource(["albums", "{id}"], 0) is None  # not a parameter


def test_each_parameter_links_to_what_lists_it_searches_or_is_the_caller() -> None:
    links = _links()
    # a playlist id comes from a listing of playlists (either one) or a search
    assert links["add-tracks"] == {"my-playlists", "user-playlists", "search"}
    # a user id comes from the current user, a search, or a listing of users (none here)
    assert links["user-playlists"] == {"me", "search"}
    assert links["create-playlist"] == {"me", "search"}
    assert links["album"] == {"search"}  # no operation lists albums
    assert links["category"] == {"categories", "search"}  # "categories" -> "category"


def test_operations_without_parameters_depend_on_nothing_and_never_on_themselves() -> None:
    links = _links()
    for free in ("search", "me", "my-playlists", "categories"):
        assert free not in links
    assert all(source not in targets for source, targets in links.items())
    assert operation_links({}) == []
    # a listing that takes the id it lists is not its own producer
    assert operation_links({"own": ("GET", "/playlists/{playlist_id}/playlists")}) == []
