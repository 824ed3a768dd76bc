"""Lazy readers of the files users keep objects in, a chunk at a time.

Each reader is re-iterable (every ``iter()`` reads the file again from the
start), so it can feed several epochs of :func:`pyd2ke.streaming.fit_streamed`,
and holds one chunk in memory at a time:

- :class:`Lines`: one string per line (a label before a separator, optional);
- :class:`Fasta`: FASTA records (``>`` header lines, sequence lines);
- :class:`RaggedArrays`: time series or sets stored as two ``.npy`` files,
  the rows of all objects one after the other (``values``) and where each
  object starts (``offsets``), read through a memory map; :func:`save_ragged`
  writes them.

A chunk is a list of objects, or an ``(objects, labels)`` pair when the
reader has labels. :class:`Lines` and :class:`Fasta` read gzip, bzip2 and
xz files as they are (known by their first bytes, whatever their names).
"""

import bz2
import gzip
import lzma
import os
from pathlib import Path

import numpy as np

from ._validation import check_positive_int, warn_user


# The first bytes of each compressed format, and the module that opens it.
_COMPRESSED = ((b"\x1f\x8b", gzip), (b"BZh", bz2), (b"\xfd7zXZ\x00", lzma))


def _path(path):
    """path as a Path; a TypeError that says why an open file is not taken."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a file's path (str or pathlib.Path), got {type(path).__name__}: a reader "
                        f"opens the file again for every pass over it, so pass its name")
    return Path(path)


def _open(path, mode, **text_options):
    """open(path, mode, ...), or the opener of its compression format."""
    with open(path, "rb") as f:
        head = f.read(6)
    for magic, module in _COMPRESSED:
        if head.startswith(magic):
            return module.open(path, mode + "t" if mode == "r" else mode, **text_options)
    return open(path, mode, **text_options)


class Lines:
    """One string per line of a text file, in chunks of ``chunk_size``.

    Parameters
    ----------
    path : str or Path
        A text file, plain or compressed (gzip, bzip2, xz).
    chunk_size : int, default=10000
    label_separator : str or None, default=None
        When given, each line is ``label<sep>string`` (split at the first
        separator) and chunks are ``(strings, labels)`` pairs.
    extra_fields : {"warn", "keep", "drop"}, default="warn"
        A line whose string holds the separator again (a third field, as
        ``label<TAB>string<TAB>split``): "keep" keeps it in the string,
        "drop" cuts the string at it, "warn" keeps it and warns once,
        naming the line.
    as_bytes : bool, default=False
        Yield ``bytes`` (compared byte by byte) instead of ``str``.
    encoding : str, default="utf-8"
    skip_empty : bool, default=True
        Leave out empty lines (with ``label_separator`` too; a line with a
        label and an empty string is kept).
    """

    def __init__(self, path, chunk_size=10000, *, label_separator=None, extra_fields="warn", as_bytes=False,
                 encoding="utf-8", skip_empty=True):
        if extra_fields not in ("warn", "keep", "drop"):
            raise ValueError(f"extra_fields must be 'warn', 'keep' or 'drop', got {extra_fields!r}")
        self.extra_fields = extra_fields
        self.path = _path(path)
        self.chunk_size = check_positive_int(chunk_size, "chunk_size")
        self.label_separator = label_separator
        self.as_bytes = as_bytes
        self.encoding = encoding
        self.skip_empty = skip_empty

    def __iter__(self):
        strings, labels = [], []
        mode = "rb" if self.as_bytes else "r"
        separator = self.label_separator
        if separator is not None and self.as_bytes:
            separator = separator.encode(self.encoding)
        newline = b"\r\n" if self.as_bytes else "\r\n"
        warned = self.extra_fields != "warn"
        with _open(self.path, mode, **({} if self.as_bytes else {"encoding": self.encoding, "newline": ""})) as f:
            try:
                for number, line in enumerate(f, 1):
                    line = line.rstrip(newline)
                    if number == 1:  # a byte-order mark (Excel's UTF-8) belongs to the file, not its first line
                        line = line.removeprefix(b"\xef\xbb\xbf" if self.as_bytes else "\ufeff")
                    if self.skip_empty and not line:
                        continue
                    if separator is not None:
                        label, found, line = line.partition(separator)
                        if not found:
                            raise ValueError(f"{self.path}:{number} has no label separator {self.label_separator!r}")
                        labels.append(label.decode(self.encoding) if self.as_bytes else label)
                        if separator in line:
                            if self.extra_fields == "drop":
                                line = line.partition(separator)[0]
                            elif not warned:
                                warned = True
                                warn_user(f"{self.path}:{number} has {line.count(separator) + 2} fields separated "
                                          f"by {self.label_separator!r}: its string is everything after the label, "
                                          f"the other fields included. Pass extra_fields='drop' to cut the strings "
                                          f"at the next separator, or 'keep' to keep them whole without this "
                                          f"warning")
                    strings.append(line)
                    if len(strings) == self.chunk_size:
                        yield self._chunk(strings, labels)
                        strings, labels = [], []
            except UnicodeDecodeError as error:
                raise ValueError(f"{self.path}:{self._undecodable_line()} is not valid {self.encoding} "
                                 f"({error.reason}): pass encoding=, or as_bytes=True for the raw bytes") from None
        if strings:
            yield self._chunk(strings, labels)

    def _undecodable_line(self):
        """The number of the first line of the file that does not decode
        (text mode decodes blocks ahead of the line it returns)."""
        with _open(self.path, "rb") as f:
            for number, line in enumerate(f, 1):
                try:
                    line.decode(self.encoding)
                except UnicodeDecodeError:
                    return number
        return "?"

    def _chunk(self, strings, labels):
        return (strings, labels) if self.label_separator is not None else strings


class Fasta:
    """The sequences of a FASTA file, in chunks of ``chunk_size`` records.

    Parameters
    ----------
    path : str or Path
        A FASTA file, plain or compressed (gzip, bzip2, xz).
    chunk_size : int, default=10000
    with_headers : bool, default=False
        Chunks are ``(sequences, headers)`` pairs (the text after ``>``),
        for instance to take labels from the headers.
    as_bytes : bool, default=False
    """

    def __init__(self, path, chunk_size=10000, *, with_headers=False, as_bytes=False):
        self.path = _path(path)
        self.chunk_size = check_positive_int(chunk_size, "chunk_size")
        self.with_headers = with_headers
        self.as_bytes = as_bytes

    def __iter__(self):
        sequences, headers, parts, header = [], [], None, None
        with _open(self.path, "r", encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                line = line.strip()
                if line.startswith(">"):
                    if parts is not None:
                        sequences.append(self._join(parts))
                        headers.append(header)
                        if len(sequences) == self.chunk_size:
                            yield self._chunk(sequences, headers)
                            sequences, headers = [], []
                    parts, header = [], line[1:].strip()
                elif line and not line.startswith(";"):
                    if parts is None:
                        raise ValueError(f"{self.path}:{number}: sequence data before the first '>' header")
                    parts.append(line)
        if parts is not None:
            sequences.append(self._join(parts))
            headers.append(header)
        if sequences:
            yield self._chunk(sequences, headers)

    def _join(self, parts):
        sequence = "".join(parts)
        return sequence.encode("ascii") if self.as_bytes else sequence

    def _chunk(self, sequences, headers):
        return (sequences, headers) if self.with_headers else sequences


def save_ragged(prefix, objects, labels=None):
    """Write objects (arrays of rows: time series (length, channels) or sets
    (size, dim)) as ``prefix.values.npy`` and ``prefix.offsets.npy`` (and
    ``prefix.labels.npy``), the files :class:`RaggedArrays` reads."""
    arrays = [np.asarray(o) for o in objects]
    arrays = [a[:, None] if a.ndim == 1 else a for a in arrays]
    if not arrays:
        raise ValueError("objects is empty: nothing to save")
    for i, a in enumerate(arrays):
        if a.ndim != 2 or a.shape[1] != arrays[0].shape[1]:
            raise ValueError(f"objects[{i}] has shape {a.shape}; every object must be (rows, "
                             f"{arrays[0].shape[1]}) like objects[0]")
    if labels is not None and len(labels) != len(arrays):
        raise ValueError(f"labels has {len(labels)} entries for {len(arrays)} objects")
    if labels is not None and np.asarray(labels).dtype == object:
        # RaggedArrays maps the file, which an array of Python objects cannot be.
        raise TypeError("labels must be numbers or strings of one type (they were saved as Python objects, "
                        "which RaggedArrays cannot map): e.g. np.asarray(labels, dtype=str)")
    offsets = np.r_[0, np.cumsum([len(a) for a in arrays])].astype(np.int64)
    np.save(f"{prefix}.values.npy", np.concatenate(arrays, axis=0))
    np.save(f"{prefix}.offsets.npy", offsets)
    if labels is not None:
        np.save(f"{prefix}.labels.npy", np.asarray(labels))


class RaggedArrays:
    """Objects stored by :func:`save_ragged`, read in chunks through a memory
    map (only the chunk's rows are read from disk).

    Parameters
    ----------
    prefix : str or Path
        The files ``prefix.values.npy``, ``prefix.offsets.npy`` (and, when
        present, ``prefix.labels.npy``: then chunks are ``(objects, labels)``).
    chunk_size : int, default=10000
    """

    def __init__(self, prefix, chunk_size=10000):
        self.prefix = str(prefix)
        self.chunk_size = check_positive_int(chunk_size, "chunk_size")

    def __len__(self):
        return len(np.load(f"{self.prefix}.offsets.npy", mmap_mode="r")) - 1

    def __iter__(self):
        values = np.load(f"{self.prefix}.values.npy", mmap_mode="r")
        offsets = np.load(f"{self.prefix}.offsets.npy")
        labels_path = Path(f"{self.prefix}.labels.npy")
        labels = np.load(labels_path, mmap_mode="r") if labels_path.exists() else None
        _check_offsets(offsets, len(values), None if labels is None else len(labels), self.prefix)
        n = len(offsets) - 1
        for start in range(0, n, self.chunk_size):
            stop = min(n, start + self.chunk_size)
            block = np.array(values[offsets[start]:offsets[stop]])  # one read of the chunk's rows
            cuts = offsets[start:stop + 1] - offsets[start]
            objects = [block[cuts[i]:cuts[i + 1]] for i in range(stop - start)]
            yield objects if labels is None else (objects, np.array(labels[start:stop]))


def _check_offsets(offsets, n_rows, n_labels, prefix):
    """The offsets of save_ragged's files: integers from 0, increasing, ending
    at the number of rows (and as many objects as labels); a ValueError
    naming the file otherwise (corrupt offsets gave wrong objects, silently)."""
    name = f"{prefix}.offsets.npy"
    if offsets.ndim != 1 or offsets.dtype.kind not in "iu" or len(offsets) == 0:
        raise ValueError(f"{name} must hold a 1-D array of integers, got {offsets.dtype} of shape {offsets.shape}")
    if offsets[0] != 0 or offsets[-1] != n_rows:
        raise ValueError(f"{name} must run from 0 to the {n_rows} rows of {prefix}.values.npy, got "
                         f"{offsets[0]} .. {offsets[-1]}")
    falling = np.flatnonzero(np.diff(offsets) < 0)
    if falling.size:
        i = int(falling[0])
        raise ValueError(f"{name} decreases at object {i} ({offsets[i]} then {offsets[i + 1]}): the files are "
                         f"corrupt or from different saves")
    if n_labels is not None and n_labels != len(offsets) - 1:
        raise ValueError(f"{prefix}.labels.npy has {n_labels} labels for the {len(offsets) - 1} objects of {name}")


__all__ = ["Fasta", "Lines", "RaggedArrays", "save_ragged"]
