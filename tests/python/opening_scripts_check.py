"""Checks the helpers the opening-suite scripts share (scripts/suites.py, scripts/gtp_engine.py).

Usage: opening_scripts_check.py TESSERA_GTP
"""
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from gtp_engine import Engine  # noqa: E402
from suites import images, rewrite  # noqa: E402


def check_images():
    found = images([(2, 3), (5, 4)], 4)
    assert len(found) == 8, found
    assert [(2, 3), (5, 4)] in found, "the identity"
    assert [(6, 3), (3, 4)] in found, "the mirror image"
    assert [(5, 2), (4, 5)] in found, "a quarter turn"
    assert len({tuple(image) for image in found}) == 8, "an asymmetric pair has eight images"
    assert all(len(set(image)) == 2 for image in found)


def check_rewrite():
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "suite.txt"
        path.write_text("# a comment\nE5 G5 ; a\n\nC3 ; b\n")
        rewrite(path, lambda line: line.split(";")[0].strip() + " ; rated")
        assert path.read_text() == "# a comment\nE5 G5 ; rated\n\nC3 ; rated\n", path.read_text()


def check_ask(tessera_gtp):
    engine = Engine([tessera_gtp])
    try:
        assert engine.ask("boardsize 9") == ""
        assert engine.ask("name").startswith("Tessera")
        try:
            engine.ask("play B Z99")
        except RuntimeError as error:
            assert "refused play B Z99" in str(error), error
        else:
            raise AssertionError("an error answer must raise")
    finally:
        engine.close()  # also when a check fails: no engine left behind


def main():
    check_images()
    check_rewrite()
    check_ask(sys.argv[1])
    print("all opening-script checks passed")


if __name__ == "__main__":
    main()
