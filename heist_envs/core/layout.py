"""Named slices of a flat observation vector."""


def build_layout(parts):
    """``[(name, size), ...]`` -> (``{name: slice}``, total size), slices laid end to end."""
    layout = {}
    start = 0
    for name, size in parts:
        if name in layout:
            raise ValueError(f"duplicate layout entry {name!r}")
        layout[name] = slice(start, start + size)
        start += size
    return layout, start
