"""The eight symmetries of a square board, for the opening scripts."""


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
