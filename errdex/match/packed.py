"""Lists of strings and string-keyed posting lists packed into a few big objects.

Loading 100,000 strings or a dict of 250,000 keys costs a few hundred milliseconds; loading one
string and one byte array costs nothing. So the matcher's core keeps its lists as one string
plus offsets, read by slicing, and its indexes as keys in one string grouped by a stable hash
(one crc32 and about one slice a key: a microsecond, however many keys there are). A process
that answers many queries turns an index into a dict once its lookups have cost about as much.

The few strings that are not ASCII are kept apart, in a small dict: one such character in the big
string would make Python store all of it four bytes a character (and decode it when loading).
"""

from __future__ import annotations

import zlib
from array import array
from collections.abc import Iterable, Iterator, Sequence, Set

# A Texts and a KeyIndex as marshal stores them (it takes plain tuples only): made by `pack`, read by `unpack` alone.
StoredTexts = tuple[str, bytes, dict[int, str]]  # (text, the offsets' bytes, the items kept apart)
StoredKeys = tuple[StoredTexts, bytes, bytes, bytes]  # (keys, the numbers', the ends' and the buckets' bytes)
# Building a KeyIndex's dict costs about as much as looking up, in the packed form, this share of
# the keys it holds (measured: 0.54-0.58 of the 145,000 keys of a hundred packages; 0.85 of 40,000
# words, whose lists are eight times as long, but that index is asked only when no template fits).
# Switching a little before that point (0.5) costs at worst about 2.1 times the choice made in
# hindsight instead of 2, and a process that goes on asking reaches the dict form sooner.
DICT_COST = 0.5


def _offsets(data: bytes) -> array[int]:
    numbers = array("I")
    numbers.frombytes(data)
    return numbers


def _ends(lengths: Iterable[int]) -> array[int]:
    out = array("I", [0])
    total = 0
    for n in lengths:
        total += n
        out.append(total)
    return out


class Texts:
    """A list of strings (None kept as "") as one string and the offsets where each starts; an item
    that is not ASCII is kept apart, by number, and takes no room in the string (so it stays ASCII)."""

    def __init__(self, text: str, starts: array[int], apart: dict[int, str]) -> None:
        self.text, self.starts, self.apart = text, starts, apart

    @classmethod
    def of(cls, items: Iterable[str | None]) -> Texts:
        values = [item or "" for item in items]
        apart = {i: v for i, v in enumerate(values) if not v.isascii()}
        values = [v if v.isascii() else "" for v in values]
        return cls("".join(values), _ends(len(v) for v in values), apart)

    @classmethod
    def unpack(cls, stored: StoredTexts) -> Texts:
        text, starts, apart = stored
        return cls(text, _offsets(starts), apart)

    def pack(self) -> StoredTexts:
        return self.text, self.starts.tobytes(), self.apart

    def __len__(self) -> int:
        return len(self.starts) - 1

    def __getitem__(self, i: int) -> str | None:
        if i < 0:
            raise IndexError(i)
        starts = self.starts  # starts[i + 1] raises IndexError past the end
        return self.text[starts[i] : starts[i + 1]] or self.apart.get(i)

    def __iter__(self) -> Iterator[str | None]:
        return (self[i] for i in range(len(self)))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Texts) and self.pack() == other.pack()

    def index(self, value: str) -> int:
        for i, item in enumerate(self):
            if item == value:
                return i
        raise ValueError(value)


class KeyIndex:
    """key -> numbers, as the keys grouped by hash bucket (Texts), every posting list end to end, and
    where each bucket starts: a lookup hashes the key and compares it with its bucket's one or two keys.

    The keys that are not ASCII (kept apart by Texts) come last, in no bucket: a lookup intersects them with its own.
    """

    def __init__(self, keys: Texts, numbers: array[int], ends: array[int], buckets: array[int]) -> None:
        self.keys, self.numbers, self.ends, self.buckets = keys, numbers, ends, buckets
        self.apart = {key: k for k, key in keys.apart.items()}  # the keys in no bucket
        self.view = memoryview(numbers)  # posting lists are handed out as views: a common word's is long
        self.asked = 0  # keys looked up in the packed form
        self.table: dict[str, tuple[int, ...]] | None = None  # key -> numbers, once the process has asked enough

    @classmethod
    def of(cls, index: dict[str, list[int]]) -> KeyIndex:
        count = max(1, len(index))
        keys = sorted(index, key=lambda k: (not k.isascii(), _bucket(k, count), k))
        numbers = array("I")
        for key in keys:
            numbers.extend(index[key])
        sizes = [0] * count
        for key in filter(str.isascii, keys):
            sizes[_bucket(key, count)] += 1
        return cls(Texts.of(keys), numbers, _ends(len(index[k]) for k in keys), _ends(sizes))

    @classmethod
    def unpack(cls, stored: StoredKeys) -> KeyIndex:
        keys, numbers, ends, buckets = stored
        return cls(Texts.unpack(keys), _offsets(numbers), _offsets(ends), _offsets(buckets))

    def pack(self) -> StoredKeys:
        return self.keys.pack(), self.numbers.tobytes(), self.ends.tobytes(), self.buckets.tobytes()

    def lookup(self, keys: Set[str]) -> list[Sequence[int]]:
        """The numbers filed under each of `keys` that is filed, rarest key first (ties in key order):
        the order a retrieval reads them in, which the dict form gives in a few C calls.

        The packed form answers a key with a crc32 and about one slice. A process that goes on asking
        (a server, a notebook) turns it into a dict once it has asked DICT_COST as many keys as the
        index holds: building the dict costs about what those lookups cost, so the process spends
        about twice, at most, what the better choice made in hindsight would have cost.
        """
        if self.table is None:
            self.asked += len(keys)
            if self.asked < len(self) * DICT_COST:
                return self._packed_lookup(keys)
            self.table = self._table()
        table = self.table
        return sorted(map(table.__getitem__, sorted(table.keys() & keys)), key=len)  # stable: ties stay in key order

    def _packed_lookup(self, keys: Set[str]) -> list[Sequence[int]]:
        """`lookup` in the packed form (numbers as read-only views, not copies): the loop's names are bound
        once for all of a message's keys.

        A bucket's key is compared in place, and only when its length is the key's (no slice is made).
        The few keys kept apart are found by intersecting sets, in C.
        """
        crc32, buckets, ends, view, apart = zlib.crc32, self.buckets, self.ends, self.view, self.apart
        text, starts = self.keys.text, self.keys.starts
        count = len(buckets) - 1
        out = []
        for key in keys:
            b = crc32(key.encode("utf-8", "surrogatepass")) % count  # _bucket(key, count)
            k, stop, n = buckets[b], buckets[b + 1], len(key)
            while k < stop:
                start = starts[k]
                if starts[k + 1] - start == n and text.startswith(key, start):
                    a, b = ends[k], ends[k + 1]
                    out.append((b - a, key, view[a:b]))
                    break
                k += 1
        for key in apart.keys() & keys if apart else ():
            a, b = ends[apart[key]], ends[apart[key] + 1]
            out.append((b - a, key, view[a:b]))
        out.sort()  # the keys are distinct: views are never compared
        return [numbers for _, _, numbers in out]

    def _table(self) -> dict[str, tuple[int, ...]]:
        """Each key's numbers as a tuple, for `lookup` by dict (iterating a tuple makes no int objects).

        The tuples are slices of one: each number is one int object however many lists hold it.
        """
        text, starts, ends, numbers = self.keys.text, self.keys.starts, self.ends, tuple(self.numbers)
        bucketed = self.buckets[-1]  # the keys kept apart follow those in buckets
        table = {
            text[a:b]: numbers[c:d] for a, b, c, d in zip(starts[:bucketed], starts[1:], ends, ends[1:], strict=False)
        }
        table.update({key: numbers[ends[k] : ends[k + 1]] for key, k in self.apart.items()})
        return table

    def __len__(self) -> int:
        return len(self.keys)

    def items(self) -> Iterator[tuple[str, memoryview]]:
        for k, key in enumerate(self.keys):
            yield key or "", self.view[self.ends[k] : self.ends[k + 1]]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, KeyIndex) and self.pack() == other.pack()


def _bucket(key: str, count: int) -> int:
    """A key's bucket: the same in every process (str's own hash is salted per process)."""
    return zlib.crc32(key.encode("utf-8", "surrogatepass")) % count
