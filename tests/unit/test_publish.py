"""Publication: whole or absent, never over a file, nothing beside the target if it dies midway."""

from __future__ import annotations

import os
from pathlib import Path

from replay.session.publish import clear_staging, publish_exclusive, staging_dir


def test_a_publication_killed_before_its_link_leaves_nothing_beside_the_target(tmp_path: Path) -> None:
    home, out = tmp_path / "home", tmp_path / "flows"
    child = os.fork()
    if child == 0:  # a daemon that dies (no unwinding, no cleanup) between writing the text and the link
        os.link = lambda *_: os._exit(137)  # type: ignore[assignment]
        publish_exclusive(str(out / "k.ad"), "open http://x/\n", str(home))
        os._exit(0)
    assert os.waitstatus_to_exitcode(os.waitpid(child, 0)[1]) == 137
    assert list(out.iterdir()) == []  # no partial file beside the target, not even a hidden one
    assert len(os.listdir(staging_dir(str(home)))) == 1
    clear_staging(str(home))  # the next daemon's start
    assert os.listdir(staging_dir(str(home))) == []


def test_a_publication_is_staged_and_linked_whole(tmp_path: Path) -> None:
    home = tmp_path / "home"
    path = publish_exclusive(str(tmp_path / "k.ad"), "open http://x/\n", str(home))
    assert Path(path).read_text() == "open http://x/\n" and os.listdir(staging_dir(str(home))) == []
