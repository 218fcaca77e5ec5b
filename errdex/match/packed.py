"""Lists of strings and string-keyed posting lists packed into a few big objects.

Loading 100,000 strings or a dict of 250,000 keys costs a few hundred milliseconds; loading one
string and one byte array costs nothing. So the matcher's core keeps its lists as one string
plus offsets, read by slicing, and its indexes as sorted keys in one string, searched by
bisection (some twenty slices a key: microseconds).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator

Packed = tuple[str, bytes]


def _offsets(data: bytes) -> array:
    numbers = array("I")
    numbers.frombytes(data)
    return numbers


def _ends(lengths: Iterable[int]) -> array:
    out = array("I", [0])
    total = 0
    for n in lengths:
        total += n
        out.append(total)
    return out


class Texts:
    """A list of strings (None kept as "") as one string and the offsets where each starts."""

    def __init__(self, text: str, starts: array) -> None:
        self.text, self.starts = text, starts

    @classmethod
    def of(cls, items: Iterable[str | None]) -> Texts:
        values = [item or "" for item in items]
        return cls("".join(values), _ends(len(v) for v in values))

    @classmethod
    def unpack(cls, packed: Packed) -> Texts:
        return cls(packed[0], _offsets(packed[1]))

    def pack(self) -> Packed:
        return self.text, self.starts.tobytes()

    def __len__(self) -> int:
        return len(self.starts) - 1

    def __getitem__(self, i: int) -> str | None:
        if not 0 <= i < len(self):
            raise IndexError(i)
        return self.text[self.starts[i] : self.starts[i + 1]] or None

    def __iter__(self) -> Iterator[str | None]:
        return (self[i] for i in range(len(self)))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Texts) and (self.text, self.starts) == (other.text, other.starts)

    def index(self, value: str) -> int:
        for i, item in enumerate(self):
            if item == value:
                return i
        raise ValueError(value)


class SortedIndex:
    """key -> numbers, as the sorted keys (Texts) and every posting list end to end."""

    def __init__(self, keys: Texts, numbers: array, ends: array) -> None:
        self.keys, self.numbers, self.ends = keys, numbers, ends

    @classmethod
    def of(cls, index: dict[str, list[int]]) -> SortedIndex:
        keys = sorted(index)
        numbers = array("I")
        for key in keys:
            numbers.extend(index[key])
        return cls(Texts.of(keys), numbers, _ends(len(index[k]) for k in keys))

    @classmethod
    def unpack(cls, packed: tuple[Packed, bytes, bytes]) -> SortedIndex:
        return cls(Texts.unpack(packed[0]), _offsets(packed[1]), _offsets(packed[2]))

    def pack(self) -> tuple[Packed, bytes, bytes]:
        return self.keys.pack(), self.numbers.tobytes(), self.ends.tobytes()

    def get(self, key: str) -> array | None:
        """The numbers filed under `key`, or None."""
        text, starts = self.keys.text, self.keys.starts
        lo, hi = 0, len(starts) - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if text[starts[mid] : starts[mid + 1]] < key:
                lo = mid + 1
            else:
                hi = mid
        if lo < len(starts) - 1 and text[starts[lo] : starts[lo + 1]] == key:
            return self.numbers[self.ends[lo] : self.ends[lo + 1]]
        return None

    def __len__(self) -> int:
        return len(self.keys)

    def items(self) -> Iterator[tuple[str, array]]:
        for k, key in enumerate(self.keys):
            yield key or "", self.numbers[self.ends[k] : self.ends[k + 1]]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SortedIndex) and self.pack() == other.pack()
