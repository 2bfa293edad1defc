"""An observation's layout: its parts in order, named index ranges (``Part``, ``Layout``), for both games' specs."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Part:
    """A run of numbers in an observation."""

    name: str
    size: int
    meaning: str
    labels: tuple[str, ...] = ()
    """For a part of several planes or entries: what each one is, in order."""


@dataclass(frozen=True, slots=True)
class Layout:
    """The parts of an observation in order; planes first (each ``area`` numbers), then the vector."""

    planes: tuple[Part, ...]
    vector: tuple[Part, ...]
    area: int
    dtype: str

    @property
    def plane_count(self) -> int:
        return sum(p.size for p in self.planes)

    @property
    def size(self) -> int:
        return self.plane_count * self.area + sum(p.size for p in self.vector)

    def span(self, name: str) -> slice:
        """The indices of a part in the flat observation (a plane part spans ``size * area`` numbers)."""
        start = 0
        for part in self.planes:
            if part.name == name:
                return slice(start, start + part.size * self.area)
            start += part.size * self.area
        for part in self.vector:
            if part.name == name:
                return slice(start, start + part.size)
            start += part.size
        raise KeyError(f"no part {name!r} in this observation")

    def plane(self, name: str, k: int = 0) -> slice:
        """The indices of plane ``k`` of a plane part."""
        whole = self.span(name)
        return slice(whole.start + k * self.area, whole.start + (k + 1) * self.area)
