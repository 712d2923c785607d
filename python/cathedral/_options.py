"""Type checks of the Python side's options, in the words of the extension's: a wrong type is a
``TypeError`` whose message starts with the option and the value given, ``games='20': expected a
whole number, not str``, before anything runs (Ray, a task, a game)."""

from __future__ import annotations

import os

import numpy as np

# What each kind of option takes, and the words for it.
_KINDS = {
    "whole": "a whole number",
    "number": "a number",
    "bool": "True or False",
    "str": "a string",
    "path": "a file path (a string or a pathlib.Path)",
    "callable": "a callable",
}


def _is(value, kind: str) -> bool:
    if kind == "whole":
        return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
    if kind == "number":
        return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))
    if kind == "bool":
        return isinstance(value, (bool, np.bool_))
    if kind == "str":
        return isinstance(value, str)
    if kind == "path":
        return isinstance(value, (str, os.PathLike))
    if kind == "callable":
        return callable(value)
    raise ValueError(f"internal error: no option kind {kind!r}")


def _refuse(name: str, value, expected: str, given: str) -> TypeError:
    return TypeError(f"{name}={value!r}: expected {expected}, not {given}")


def check(name: str, value, kind: str, *, none: bool = False) -> None:
    """Raises ``TypeError`` naming ``name`` unless ``value`` is of ``kind`` (or None, where
    ``none``)."""
    if none and value is None:
        return
    if not _is(value, kind):
        expected = _KINDS[kind] + (" or None" if none else "")
        raise _refuse(name, value, expected, type(value).__name__)


def check_list(name: str, value, kind: str, *, none: bool = False, depth: int = 1) -> None:
    """As :func:`check`, for a list (or tuple) of ``kind``, or (``depth=2``) a list of such
    lists."""
    if none and value is None:
        return
    words = {"whole": "whole numbers", "number": "numbers", "str": "strings"}[kind]
    expected = ("a list of lists of " if depth == 2 else "a list of ") + words + (" or None" if none else "")
    if not isinstance(value, (list, tuple)):
        raise _refuse(name, value, expected, type(value).__name__)
    for index, item in enumerate(value):
        if depth == 2:
            if not isinstance(item, (list, tuple)):
                raise _refuse(name, value, expected, f"{type(item).__name__} at index {index}")
            for inner, element in enumerate(item):
                if not _is(element, kind):
                    raise _refuse(name, value, expected, f"{type(element).__name__} at index [{index}][{inner}]")
        elif not _is(item, kind):
            raise _refuse(name, value, expected, f"{type(item).__name__} at index {index}")


def check_pair(name: str, value, *, none: bool = False) -> None:
    """As :func:`check`, for a pair of numbers (a tuple or a list of two)."""
    if none and value is None:
        return
    expected = "a pair (a number, a number)" + (" or None" if none else "")
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise _refuse(name, value, expected, type(value).__name__)
    for item in value:
        if not _is(item, "number"):
            raise _refuse(name, value, expected, f"{type(item).__name__} in it")
