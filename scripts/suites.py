"""What the opening-suite scripts share: reading a suite, the board's symmetries and re-rating a
suite in place."""
import sys


def images(points, centre):
    """The eight images of a list of (x, y) points under the rotations and reflections of a square
    board about (centre, centre), each a list in the order of `points`."""
    found = []
    for flip in (False, True):
        for turns in range(4):
            image = []
            for x, y in points:
                dx, dy = x - centre, y - centre
                if flip:
                    dx = -dx
                for _ in range(turns):
                    dx, dy = -dy, dx
                image.append((dx + centre, dy + centre))
            found.append(image)
    return found


def is_opening(line):
    """Whether a suite file's line holds an opening (not blank, not a `#` comment)."""
    return bool(line.strip()) and not line.startswith("#")


def openings(path):
    """The move lists of the suite file `path`: the part of each opening line before its `;` notes,
    split into moves; blank and comment (`#`) lines are skipped."""
    return [line.partition(";")[0].split() for line in open(path) if is_opening(line)]


def rewrite(path, rerate):
    """Replaces every opening line of the suite file `path` by `rerate(line)`, printing each new
    line to stderr; blank and comment (`#`) lines stay as they are."""
    out = []
    for line in path.read_text().splitlines():
        if is_opening(line):
            line = rerate(line)
            print(line, file=sys.stderr)
        out.append(line)
    path.write_text("\n".join(out) + "\n")
